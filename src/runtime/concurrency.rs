//! How many short engine calls (inspects) podrun keeps in flight at once. Concurrent calls hide
//! the round trips (a 20-container pod is looked at in the time of a few inspects), and a bound
//! keeps a large run (many pods of many containers) from opening hundreds of connections to
//! the engine at once. Calls that wait on a container (a stop inside its grace period) are not
//! bounded: each would hold a place for as long as its container takes.

use std::future::Future;

use futures_util::stream::{self, StreamExt};

/// Engine calls in flight at once, per batch.
pub const ENGINE_CALLS: usize = 16;

/// Runs the futures with at most `ENGINE_CALLS` at a time; the outputs come in their order.
pub async fn bounded<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    stream::iter(futures).buffered(ENGINE_CALLS).collect().await
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn keeps_order_and_bound() {
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let outs = bounded((0..50).map(|i| {
            let (now, most) = (&now, &most);
            async move {
                let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(n, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(if i % 2 == 0 { 5 } else { 1 })).await;
                now.fetch_sub(1, Ordering::SeqCst);
                i
            }
        }))
        .await;
        assert_eq!(outs, (0..50).collect::<Vec<_>>());
        assert_eq!(most.load(Ordering::SeqCst), ENGINE_CALLS);
    }
}
