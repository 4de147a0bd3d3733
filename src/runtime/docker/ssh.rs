//! An engine at `ssh://[user@]host[:port][/socket]`, reached as the Docker CLI reaches it
//! (`cli/connhelper`): each connection is the system's `ssh` client running
//! `docker system dial-stdio` on the far side, the HTTP API carried over its standard input
//! and output. So the user's ssh config (`~/.ssh/config`: host aliases, keys, jump hosts) and
//! agent apply as they do for `docker` and `ssh` themselves.
//!
//! Unlike the Docker CLI, podrun adds `-o BatchMode=yes`: ssh runs in a process group of its
//! own (so a Ctrl-C at the terminal reaches podrun, which cleans up over the connection, and not
//! ssh), where it could not ask for a password or a passphrase anyway; with BatchMode it fails
//! at once, saying so, instead of waiting for the connect timeout. Keys come from the agent or
//! unencrypted key files. Each ssh process ends with its connection (killed when dropped), and
//! when podrun exits (its standard input closes, so ssh and dial-stdio end).

use std::io;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::watch;

/// The Docker CLI's ssh ConnectTimeout, in seconds.
const CONNECT_TIMEOUT_SECS: u32 = 30;
/// The most of ssh's standard error kept for an error message.
const STDERR_KEPT: usize = 8 * 1024;
/// How long an error waits for ssh to finish saying why it failed.
const STDERR_WAIT: Duration = Duration::from_secs(2);
/// The lines of ssh's standard error an error message quotes (the last ones).
const STDERR_LINES: usize = 3;

/// The ssh command line for an `ssh://` address, and what the last ssh process said.
pub struct SshCommand {
    args: Vec<String>,
    last: Mutex<Option<watch::Receiver<Stderr>>>,
}

impl std::fmt::Debug for SshCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SshCommand").field("args", &self.args).finish_non_exhaustive()
    }
}

/// An ssh process's standard error, and whether it has ended (ssh exited).
#[derive(Debug, Clone, Default)]
struct Stderr {
    text: Vec<u8>,
    done: bool,
}

/// An ssh URL the Docker CLI refuses, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid ssh URL {}: {why}", crate::escape::Escaped(url))]
pub struct UrlError {
    url: String,
    why: &'static str,
}

impl SshCommand {
    /// `ssh://[user@]host[:port][/socket]`, as the Docker CLI's `ssh.ParseURL` takes it: no
    /// password, query or fragment; a path is the engine's socket on the far side.
    pub fn parse(url: &str) -> Result<SshCommand, UrlError> {
        let invalid = |why: &'static str| UrlError { url: url.to_owned(), why };
        let rest = url.strip_prefix("ssh://").ok_or_else(|| invalid("the scheme must be ssh://"))?;
        if rest.contains('?') {
            return Err(invalid("query parameters are not allowed"));
        }
        if rest.contains('#') {
            return Err(invalid("fragments are not allowed"));
        }
        let (authority, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
        let (user, hostport) = match authority.rsplit_once('@') {
            Some((user, hp)) => (Some(user), hp),
            None => (None, authority),
        };
        if user.is_some_and(|u| u.contains(':')) {
            return Err(invalid("plain-text password is not supported"));
        }
        let (host, port) = super::tls::split_host_port(hostport);
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return Err(invalid("hostname is empty"));
        }
        let mut args: Vec<String> = vec!["-o".into(), format!("ConnectTimeout={CONNECT_TIMEOUT_SECS}")];
        args.extend(["-o".into(), "BatchMode=yes".into(), "-T".into()]);
        if let Some(user) = user.filter(|u| !u.is_empty()) {
            args.extend(["-l".into(), user.to_owned()]);
        }
        if let Some(port) = port {
            args.extend(["-p".into(), port.to_owned()]);
        }
        args.extend(["--".into(), host.to_owned(), "docker".into()]);
        if !path.trim_matches('/').is_empty() {
            args.push(format!("--host=unix://{path}"));
        }
        args.extend(["system".into(), "dial-stdio".into()]);
        Ok(SshCommand { args, last: Mutex::new(None) })
    }

    /// The arguments given to `ssh`.
    #[cfg(test)]
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// Starts `ssh` for one connection.
    pub fn spawn(&self) -> io::Result<SshStream> {
        let mut cmd = tokio::process::Command::new("ssh");
        cmd.args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Out of the terminal's process group: a Ctrl-C is podrun's to handle.
            .process_group(0);
        let mut child = cmd.spawn().map_err(|e| io::Error::new(e.kind(), format!("cannot run ssh: {e}")))?;
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(io::Error::other("ssh started without its pipes"));
        };
        let (tx, rx) = watch::channel(Stderr::default());
        tokio::spawn(async move {
            let mut buf = [0u8; 1024];
            loop {
                match stderr.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => tx.send_modify(|s| {
                        s.text.extend_from_slice(&buf[..n]);
                        let excess = s.text.len().saturating_sub(STDERR_KEPT);
                        s.text.drain(..excess);
                    }),
                }
            }
            tx.send_modify(|s| s.done = true);
        });
        if let Ok(mut last) = self.last.lock() {
            *last = Some(rx);
        }
        Ok(SshStream { _child: child, stdin: Some(stdin), stdout })
    }

    /// What the last ssh process said on its standard error, its last lines, once it has ended
    /// (waiting a moment for that); None if it said nothing.
    pub async fn last_error(&self) -> Option<String> {
        let mut rx = self.last.lock().ok()?.clone()?;
        let _ = tokio::time::timeout(STDERR_WAIT, rx.wait_for(|s| s.done)).await;
        let text = String::from_utf8_lossy(&rx.borrow().text).into_owned();
        summary(&text)
    }
}

/// The last few non-empty lines of ssh's standard error, joined; None if there are none.
fn summary(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let last = &lines[lines.len().saturating_sub(STDERR_LINES)..];
    (!last.is_empty()).then(|| format!("ssh said: {}", last.join(" / ")))
}

/// One connection: the ssh process's standard output and input. Dropping it kills the process.
pub struct SshStream {
    _child: Child,
    /// None once shut down: closing the pipe is what tells the far side "end of input" (tokio's
    /// shutdown of a pipe does not close it), as `exec -i` needs when its input ends.
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
}

impl AsyncRead for SshStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stdout).poll_read(cx, buf)
    }
}

impl AsyncWrite for SshStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.stdin.as_mut() {
            Some(stdin) => Pin::new(stdin).poll_write(cx, buf),
            None => Poll::Ready(Err(io::Error::new(io::ErrorKind::BrokenPipe, "written after shutdown"))),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.stdin.as_mut() {
            Some(stdin) => Pin::new(stdin).poll_flush(cx),
            None => Poll::Ready(Ok(())),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some(stdin) = self.stdin.as_mut() {
            std::task::ready!(Pin::new(stdin).poll_flush(cx))?;
        }
        self.stdin = None;
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(url: &str) -> Vec<String> {
        SshCommand::parse(url).unwrap_or_else(|e| panic!("{e}")).args().to_vec()
    }

    #[test]
    fn the_command_line_is_the_docker_clis() {
        let base = ["-o", "ConnectTimeout=30", "-o", "BatchMode=yes", "-T"];
        let with = |rest: &[&str]| base.iter().chain(rest).map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(args("ssh://build-host"), with(&["--", "build-host", "docker", "system", "dial-stdio"]));
        assert_eq!(
            args("ssh://me@10.0.0.5:2222"),
            with(&["-l", "me", "-p", "2222", "--", "10.0.0.5", "docker", "system", "dial-stdio"])
        );
        assert_eq!(
            args("ssh://me@h/run/user/1000/docker.sock"),
            with(&[
                "-l",
                "me",
                "--",
                "h",
                "docker",
                "--host=unix:///run/user/1000/docker.sock",
                "system",
                "dial-stdio"
            ])
        );
        assert_eq!(args("ssh://[::1]:22"), with(&["-p", "22", "--", "::1", "docker", "system", "dial-stdio"]));
    }

    #[test]
    fn bad_urls_are_refused_as_docker_refuses_them() {
        for (url, why) in [
            ("ssh://me:secret@h", "plain-text password"),
            ("ssh://h?x=1", "query parameters"),
            ("ssh://h#f", "fragments"),
            ("ssh://me@", "hostname is empty"),
        ] {
            let e = SshCommand::parse(url).unwrap_err().to_string();
            assert!(e.contains(why), "{url}: {e}");
        }
    }

    #[test]
    fn the_summary_is_the_last_lines() {
        assert_eq!(summary(""), None);
        assert_eq!(summary("\n  \n"), None);
        assert_eq!(
            summary("Warning: added\nx\nroot@h: Permission denied (publickey).\n\n"),
            Some("ssh said: Warning: added / x / root@h: Permission denied (publickey).".into())
        );
    }
}
