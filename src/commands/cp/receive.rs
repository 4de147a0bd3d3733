//! An archive from the engine written under DEST as it comes: the engine's chunks go through
//! a channel of a few chunks to the extractor, which runs on a blocking thread (the `tar`
//! reader is synchronous). A stream broken mid-way is opened again and read on from where it
//! broke, as kubectl's `--retries` does.

use std::io::{self, Read};

use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::extract::Extractor;
use super::transfer::{Bytes, Container, CopyError};
use super::Failure;

/// How many chunks wait for the extractor at most.
const QUEUED: usize = 4;

/// Where the archive comes from, to open it again after a break.
pub struct Source {
    pub container: Container,
    pub path: String,
    /// kubectl's `--retries`: 0 none, negative without end.
    pub retries: i32,
}

/// Writes the archive `first` (from `source`) with `extractor`.
pub async fn receive(first: Bytes, source: Source, mut extractor: Extractor) -> Result<(), Failure> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>(QUEUED);
    let writing = tokio::task::spawn_blocking(move || extractor.extract(Chunks { rx, chunk: Vec::new(), at: 0 }));
    let reopen = async || {
        let missing = || Failure::NoSuchPath { path: source.path.clone() };
        source.container.download(&source.path).await?.ok_or_else(missing)
    };
    let pumped = pump(first, source.retries, reopen, tx).await;
    let written = writing.await.map_err(|e| Failure::Local { path: source.path.clone(), source: e.into() })?;
    // The archive's own error (tar failed in the container) says more than a cut archive.
    pumped?;
    Ok(written?)
}

/// Sends the archive's chunks to the extractor, opening it again (`reopen`) after a break, at
/// most `retries` times (negative: without end).
async fn pump(
    mut stream: Bytes,
    retries: i32,
    mut reopen: impl AsyncFnMut() -> Result<Bytes, Failure>,
    tx: mpsc::Sender<Vec<u8>>,
) -> Result<(), Failure> {
    let (mut read, mut skip, mut tries) = (0u64, 0u64, 0i32);
    loop {
        let chunk = match stream.next().await {
            None => return Ok(()),
            Some(Ok(chunk)) => chunk,
            Some(Err(e @ (CopyError::Exec { .. } | CopyError::NoExitCode))) => return Err(e.into()),
            Some(Err(e)) => {
                if retries >= 0 && tries >= retries {
                    if retries > 0 {
                        crate::report::output::eprintln(&format!("Dropping out copy after {tries} retries"));
                    }
                    return Err(e.into());
                }
                tries += 1;
                crate::report::output::eprintln(&format!("Resuming copy at {read} bytes, retry {tries}/{retries}"));
                stream = reopen().await?;
                skip = read;
                continue;
            }
        };
        // Bytes read before the break come again first.
        let drop = usize::try_from(skip).unwrap_or(usize::MAX).min(chunk.len());
        skip -= drop as u64;
        let chunk = chunk[drop..].to_vec();
        read += chunk.len() as u64;
        if chunk.is_empty() {
            continue;
        }
        if tx.send(chunk).await.is_err() {
            // The extractor stopped (its error is the copy's).
            return Ok(());
        }
    }
}

/// The channel's chunks as a reader for the extractor.
struct Chunks {
    rx: mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.rx.blocking_recv() {
                Some(chunk) => (self.chunk, self.at) = (chunk, 0),
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::RuntimeError;

    /// `whole` in chunks of 7 bytes, broken (a connection reset) after `breaks_at` chunks.
    fn broken(whole: &[u8], breaks_at: Option<usize>) -> Bytes {
        let mut items: Vec<Result<Vec<u8>, CopyError>> = whole.chunks(7).map(|c| Ok(c.to_vec())).collect();
        if let Some(at) = breaks_at {
            items.truncate(at);
            items.push(Err(CopyError::Engine(RuntimeError::NotFound { what: "reset".into() })));
        }
        futures_util::stream::iter(items).boxed()
    }

    async fn pumped(retries: i32, breaks: &[usize]) -> (Result<(), Failure>, Vec<u8>, usize) {
        let whole: Vec<u8> = (0..200u8).collect();
        let (tx, mut rx) = mpsc::channel(1000);
        let mut opened = 0;
        let mut later = breaks.iter().skip(1).copied();
        let reopen = async || {
            opened += 1;
            Ok(broken(&whole, later.next()))
        };
        let result = pump(broken(&whole, breaks.first().copied()), retries, reopen, tx).await;
        let mut got = Vec::new();
        while let Ok(chunk) = rx.try_recv() {
            got.extend(chunk);
        }
        (result, got, opened)
    }

    #[tokio::test]
    async fn a_broken_stream_is_read_on_where_it_broke() {
        let whole: Vec<u8> = (0..200u8).collect();
        let (result, got, opened) = pumped(2, &[3, 10]).await;
        result.unwrap();
        assert_eq!((got, opened), (whole.clone(), 2));
        let (result, got, _) = pumped(-1, &[1, 2, 3, 4, 5]).await;
        result.unwrap();
        assert_eq!(got, whole);
    }

    #[tokio::test]
    async fn without_retries_a_break_is_the_copys_error() {
        let (result, got, opened) = pumped(0, &[3]).await;
        assert!(matches!(result, Err(Failure::Copy(CopyError::Engine(_)))), "{result:?}");
        assert_eq!((got.len(), opened), (21, 0));
        let (result, _, opened) = pumped(1, &[3, 4]).await;
        assert!(result.is_err());
        assert_eq!(opened, 1);
    }
}
