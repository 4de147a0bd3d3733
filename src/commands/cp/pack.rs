//! The local end of `podrun cp SRC POD:PATH`: SRC as a tar archive made as it is sent, so a
//! tree of any size costs a few chunks of memory. As kubectl's: directories recursively,
//! symbolic links as links (never followed), modes, owners and times kept unless
//! `--no-preserve`.

use std::io::{self, Write};
use std::path::PathBuf;

use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::runtime::UploadStream;

/// Chunks of this size go to the engine.
const CHUNK: usize = 64 * 1024;
/// How many chunks wait for the engine at most.
const QUEUED: usize = 4;

/// SRC archived under `name` (the name it takes in the container), and the task that makes
/// it: its error (SRC unreadable) is the copy's.
pub fn pack(src: PathBuf, name: String, no_preserve: bool) -> (UploadStream, tokio::task::JoinHandle<io::Result<()>>) {
    let (tx, rx) = mpsc::channel::<io::Result<Vec<u8>>>(QUEUED);
    let task = tokio::task::spawn_blocking(move || {
        let writer = Chunks { tx: tx.clone(), buf: Vec::with_capacity(CHUNK) };
        let result = build(writer, &src, &name, no_preserve);
        if let Err(e) = &result {
            // The engine must not take a cut archive for a whole one.
            let _ = tx.blocking_send(Err(io::Error::new(e.kind(), e.to_string())));
        }
        result
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) });
    (stream.boxed(), task)
}

fn build(writer: Chunks, src: &std::path::Path, name: &str, no_preserve: bool) -> io::Result<()> {
    let mut builder = tar::Builder::new(writer);
    builder.follow_symlinks(false);
    if no_preserve {
        builder.mode(tar::HeaderMode::Deterministic);
    }
    if std::fs::symlink_metadata(src)?.is_dir() {
        builder.append_dir_all(name, src)?;
    } else {
        builder.append_path_with_name(src, name)?;
    }
    builder.into_inner()?.flush()
}

/// A writer that hands what it is given to the channel in chunks, waiting while it is full.
struct Chunks {
    tx: mpsc::Sender<io::Result<Vec<u8>>>,
    buf: Vec<u8>,
}

impl Write for Chunks {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = data.len().min(CHUNK - self.buf.len());
        self.buf.extend_from_slice(&data[..n]);
        if self.buf.len() == CHUNK {
            self.flush()?;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK));
        // The engine stopped reading (it refused the upload): the error comes from its answer.
        self.tx.blocking_send(Ok(chunk)).map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    #[tokio::test]
    async fn a_tree_is_archived_under_its_new_name_with_links_as_links() {
        let tmp = TempDir::new("cp-pack");
        let src = tmp.join("src");
        std::fs::create_dir_all(src.join("sub")).unwrap();
        std::fs::write(src.join("sub/a"), vec![7u8; 200_000]).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", src.join("link")).unwrap();
        let (stream, task) = pack(src, "copy".into(), false);
        let chunks: Vec<io::Result<Vec<u8>>> = stream.collect().await;
        task.await.unwrap().unwrap();
        assert!(chunks.iter().all(|c| c.as_ref().is_ok_and(|c| c.len() <= CHUNK)));
        let whole: Vec<u8> = chunks.into_iter().flat_map(Result::unwrap).collect();
        let mut archive = tar::Archive::new(whole.as_slice());
        let mut seen: Vec<(String, tar::EntryType)> = archive
            .entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (e.path().unwrap().to_string_lossy().into_owned(), e.header().entry_type())
            })
            .collect();
        seen.sort_by(|a, b| a.0.cmp(&b.0));
        let names: Vec<&str> = seen.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["copy/", "copy/link", "copy/sub", "copy/sub/a"]);
        assert_eq!(seen[1].1, tar::EntryType::Symlink);
    }

    #[tokio::test]
    async fn an_unreadable_source_ends_the_stream_with_an_error() {
        let tmp = TempDir::new("cp-pack-missing");
        let (stream, task) = pack(tmp.join("nothing"), "x".into(), false);
        let chunks: Vec<io::Result<Vec<u8>>> = stream.collect().await;
        assert!(task.await.unwrap().is_err());
        assert!(chunks.last().is_some_and(Result::is_err));
    }
}
