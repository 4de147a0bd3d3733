//! The containers one run creates, for `--cleanup-on-failure` and for a run overtaken by a
//! deletion. A create is sent from a task of its own, so it finishes, and is recorded, even
//! when the run that asked for it is cut short while the engine works on it (an interrupt drops
//! the run's step); the run's end waits for such creates before it says what it made.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::runtime::{Cause, CreateSpec, Runtime, RuntimeError};

pub struct Creations<R> {
    rt: Arc<R>,
    ids: Arc<Mutex<Vec<String>>>,
    /// How many creates are still with the engine.
    in_flight: Arc<tokio::sync::watch::Sender<usize>>,
}

/// Counts a create as finished however its task ends (a panic in the runtime included).
struct Finished(Arc<tokio::sync::watch::Sender<usize>>);

impl Drop for Finished {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl<R: Runtime> Creations<R> {
    pub fn new(rt: Arc<R>) -> Self {
        Creations { rt, ids: Arc::default(), in_flight: Arc::new(tokio::sync::watch::Sender::new(0)) }
    }

    /// `Runtime::create`, with the new container's id recorded as soon as the engine answers.
    pub async fn create(&self, spec: CreateSpec) -> Result<String, RuntimeError> {
        self.in_flight.send_modify(|n| *n += 1);
        let finished = Finished(self.in_flight.clone());
        let (rt, ids) = (self.rt.clone(), self.ids.clone());
        let name = spec.name.clone();
        let task = tokio::spawn(async move {
            let _finished = finished;
            let r = rt.create(&spec).await;
            if let Ok(id) = &r {
                ids.lock().unwrap_or_else(|e| e.into_inner()).push(id.clone());
            }
            r
        });
        task.await.unwrap_or_else(|e| {
            Err(RuntimeError::Client { what: format!("create {name}"), source: Cause(Arc::new(e)) })
        })
    }

    /// The ids of the containers created, once no create is with the engine any more (or after
    /// `limit`, for an engine that does not answer).
    pub async fn settled(&self, limit: Duration) -> Vec<String> {
        let mut rx = self.in_flight.subscribe();
        let _ = tokio::time::timeout(limit, rx.wait_for(|n| *n == 0)).await;
        self.ids()
    }

    /// The ids of the containers created so far.
    pub fn ids(&self) -> Vec<String> {
        self.ids.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
