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
    let pumped = pump(first, &source, tx).await;
    let written = writing.await.map_err(|e| Failure::Local { path: source.path.clone(), source: e.into() })?;
    // The archive's own error (tar failed in the container) says more than a cut archive.
    pumped?;
    Ok(written?)
}

/// Sends the archive's chunks to the extractor, opening it again after a break.
async fn pump(mut stream: Bytes, source: &Source, tx: mpsc::Sender<Vec<u8>>) -> Result<(), Failure> {
    let (mut read, mut skip, mut tries) = (0u64, 0u64, 0i32);
    loop {
        let chunk = match stream.next().await {
            None => return Ok(()),
            Some(Ok(chunk)) => chunk,
            Some(Err(e @ (CopyError::Exec { .. } | CopyError::NoExitCode))) => return Err(e.into()),
            Some(Err(e)) => {
                if source.retries >= 0 && tries >= source.retries {
                    if source.retries > 0 {
                        crate::report::output::eprintln(&format!("Dropping out copy after {tries} retries"));
                    }
                    return Err(e.into());
                }
                tries += 1;
                let limit = source.retries;
                crate::report::output::eprintln(&format!("Resuming copy at {read} bytes, retry {tries}/{limit}"));
                let missing = || Failure::NoSuchPath { path: source.path.clone() };
                stream = source.container.download(&source.path).await?.ok_or_else(missing)?;
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
