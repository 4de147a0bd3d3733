//! SIGINT and SIGTERM, as a value every pod's driver can watch: on either, each driver stops
//! where it is (what exists stays labelled and consistent for a later apply or delete), and
//! podrun exits 128 + the signal number.

use tokio::signal::unix::{signal, SignalKind};
use tokio::sync::watch;

use crate::status::outcome::{SIGINT, SIGTERM};

/// A handle on the first SIGINT or SIGTERM; cheap to clone.
#[derive(Debug, Clone)]
pub struct Interrupt(watch::Receiver<Option<i32>>);

impl Interrupt {
    /// Starts listening. Must be called inside the tokio runtime.
    pub fn listen() -> std::io::Result<Interrupt> {
        let (tx, rx) = watch::channel(None);
        let mut int = signal(SignalKind::interrupt())?;
        let mut term = signal(SignalKind::terminate())?;
        tokio::spawn(async move {
            let sig = tokio::select! {
                _ = int.recv() => SIGINT,
                _ = term.recv() => SIGTERM,
            };
            let _ = tx.send(Some(sig));
        });
        Ok(Interrupt(rx))
    }

    /// One fired by hand through the sender, for tests.
    #[cfg(test)]
    pub fn manual() -> (watch::Sender<Option<i32>>, Interrupt) {
        let (tx, rx) = watch::channel(None);
        (tx, Interrupt(rx))
    }

    /// One that never fires, for tests.
    #[cfg(test)]
    pub fn never() -> Interrupt {
        // The sender is dropped at once: `wait` then never resolves, `fired` stays None.
        Interrupt(watch::channel(None).1)
    }

    pub fn fired(&self) -> Option<i32> {
        *self.0.borrow()
    }

    /// Resolves with the signal number once one has arrived.
    pub async fn wait(&mut self) -> i32 {
        loop {
            if let Some(sig) = *self.0.borrow_and_update() {
                return sig;
            }
            // Closed: no signal can come any more (the value set before closing stays).
            if self.0.changed().await.is_err() {
                if let Some(sig) = *self.0.borrow() {
                    return sig;
                }
                return std::future::pending().await;
            }
        }
    }
}
