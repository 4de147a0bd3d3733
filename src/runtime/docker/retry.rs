//! Reads asked again while the engine cannot yet answer them usably.

use std::time::Duration;

use bollard::errors::Error as BollardError;

/// How often, and how far apart, a container list or inspect whose answer cannot be used is
/// asked again (see [`decoded`]): 40 × 25 ms, a second at most.
const UNDECODABLE_RETRIES: u32 = 40;
const UNDECODABLE_DELAY: Duration = Duration::from_millis(25);

/// Runs `call`, a read (a container list or inspect), until its answer can be used, a second at
/// most. Podman (4.3) trips over containers that exit while it reads them: it reports one that
/// has just exited as `stopped` until its cleanup has run, tens of milliseconds later (a state
/// the Docker API does not have, so bollard cannot decode the answer), and a list can fail
/// with 500 when a container's process went away mid-read (`read /proc/PID/cgroup`). podrun
/// looks right after each `die` event, in exactly that window; asking again a moment later gets
/// a good answer. A read is safe to repeat. What still fails after that is the error it is.
pub(super) async fn decoded<T, F, Fut>(mut call: F) -> Result<T, BollardError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, BollardError>>,
{
    let mut retries = 0;
    loop {
        match call().await {
            Err(
                BollardError::JsonDataError { .. } | BollardError::DockerResponseServerError { status_code: 500, .. },
            ) if retries < UNDECODABLE_RETRIES => {
                retries += 1;
                tokio::time::sleep(UNDECODABLE_DELAY).await;
            }
            r => return r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undecodable() -> BollardError {
        BollardError::JsonDataError { message: "unknown variant `stopped`".into(), column: 1 }
    }

    #[tokio::test(start_paused = true)]
    async fn an_undecodable_answer_is_asked_again_for_a_while() {
        let calls = std::sync::atomic::AtomicU32::new(0);
        let call = || {
            let n = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async move {
                if n < 3 {
                    Err(undecodable())
                } else {
                    Ok(n)
                }
            }
        };
        assert_eq!(decoded(call).await.unwrap(), 3, "the fourth answer decodes");

        let calls = std::sync::atomic::AtomicU32::new(0);
        let start = tokio::time::Instant::now();
        let r: Result<(), _> = decoded(|| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async { Err(undecodable()) }
        })
        .await;
        assert!(matches!(r, Err(BollardError::JsonDataError { .. })));
        assert_eq!(calls.into_inner(), UNDECODABLE_RETRIES + 1);
        assert_eq!(start.elapsed(), UNDECODABLE_DELAY * UNDECODABLE_RETRIES);

        // A 500 (Podman: a process gone mid-read) is asked again too; it may pass the next time.
        let calls = std::sync::atomic::AtomicU32::new(0);
        let r: Result<u32, _> = decoded(|| {
            let n = calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async move {
                if n == 0 {
                    Err(BollardError::DockerResponseServerError { status_code: 500, message: "x".into() })
                } else {
                    Ok(n)
                }
            }
        })
        .await;
        assert_eq!(r.unwrap(), 1);

        // Other errors (a container that does not exist) are answers: not asked again.
        let calls = std::sync::atomic::AtomicU32::new(0);
        let r: Result<(), _> = decoded(|| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async { Err(BollardError::DockerResponseServerError { status_code: 404, message: "x".into() }) }
        })
        .await;
        assert!(r.is_err());
        assert_eq!(calls.into_inner(), 1);
    }
}
