//! SIGINT and SIGTERM, as a value every pod's driver can watch: on either, each driver stops
//! where it is (what exists stays labelled and consistent for a later apply or delete), and
//! podrun exits 128 + the signal number. A `Stop` stops a set of drivers the same way without a
//! signal (supervision starting over), and podrun goes on.

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

    /// One that fires when this one does, or when the `Stop` returned is fired: the drivers
    /// watching it stop as on a signal, while podrun goes on.
    pub fn stoppable(&self) -> (Stop, Interrupt) {
        let (tx, rx) = watch::channel(self.fired());
        let (mut parent, forward) = (self.clone(), tx.clone());
        tokio::spawn(async move {
            tokio::select! {
                sig = parent.wait() => { forward.send_if_modified(|s| s.is_none() && { *s = Some(sig); true }); }
                // Every Interrupt of this one dropped: nobody to tell any more.
                () = forward.closed() => {}
            }
        });
        (Stop(tx), Interrupt(rx))
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

    /// Whether a signal can still be heard: the task listening for them is alive (it ends
    /// once it has passed one on).
    pub fn listening(&self) -> bool {
        self.0.has_changed().is_ok()
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

/// Fires the `Interrupt` of `Interrupt::stoppable`.
#[derive(Debug)]
pub struct Stop(watch::Sender<Option<i32>>);

impl Stop {
    /// Stops the drivers as `sig` would; the first of it and a signal is what they see.
    pub fn fire(&self, sig: i32) {
        self.0.send_if_modified(|s| {
            s.is_none() && {
                *s = Some(sig);
                true
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stop_fires_the_stoppable_one_alone() {
        let (_tx, parent) = Interrupt::manual();
        let (stop, mut child) = parent.stoppable();
        assert_eq!(child.fired(), None);
        stop.fire(SIGINT);
        assert_eq!(child.wait().await, SIGINT);
        stop.fire(SIGTERM);
        assert_eq!(child.fired(), Some(SIGINT), "the first stays");
        assert_eq!(parent.fired(), None, "the process goes on");
    }

    #[tokio::test]
    async fn listening_ends_with_the_listener() {
        let (tx, parent) = Interrupt::manual();
        assert!(parent.listening());
        drop(tx);
        assert!(!parent.listening());
        assert!(!Interrupt::never().listening());
    }

    #[tokio::test]
    async fn a_signal_fires_the_stoppable_one_too() {
        let (tx, parent) = Interrupt::manual();
        let (_stop, mut child) = parent.stoppable();
        tx.send(Some(SIGTERM)).unwrap();
        assert_eq!(child.wait().await, SIGTERM);
        let (_stop, late) = parent.stoppable();
        assert_eq!(late.fired(), Some(SIGTERM), "one made after the signal has it already");
    }
}
