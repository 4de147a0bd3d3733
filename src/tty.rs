//! podrun's own terminal, for `podrun exec -it`: raw mode while a command in a container owns
//! it, and its size so the container's terminal can match.

use std::io::IsTerminal;
use std::os::fd::AsFd;

use rustix::termios::{self, OptionalActions, Termios};

use crate::runtime::TermSize;

/// Standard input in raw mode (keys go to the container as they are typed, Ctrl-C included, and
/// nothing is echoed twice) until dropped, which puts the saved settings back, on every way
/// out: return, error or unwinding.
#[derive(Debug)]
pub struct RawMode {
    saved: Termios,
}

impl RawMode {
    pub fn enable() -> std::io::Result<RawMode> {
        let stdin = std::io::stdin();
        let saved = termios::tcgetattr(stdin.as_fd())?;
        let mut raw = saved.clone();
        raw.make_raw();
        termios::tcsetattr(stdin.as_fd(), OptionalActions::Now, &raw)?;
        Ok(RawMode { saved })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        // Drain: what podrun already wrote must be shown before the settings change back.
        if let Err(e) = termios::tcsetattr(std::io::stdin().as_fd(), OptionalActions::Drain, &self.saved) {
            tracing::warn!("cannot restore the terminal settings: {e} (run `reset`)");
        }
    }
}

/// The size of the terminal podrun writes to (standard output, else standard input), if either
/// is a terminal.
pub fn size() -> Option<TermSize> {
    let of = |fd: std::os::fd::BorrowedFd<'_>| termios::tcgetwinsize(fd).ok().filter(|w| w.ws_row > 0 && w.ws_col > 0);
    let stdout = std::io::stdout();
    let stdin = std::io::stdin();
    let w = if stdout.is_terminal() { of(stdout.as_fd()) } else { None }.or_else(|| {
        if stdin.is_terminal() {
            of(stdin.as_fd())
        } else {
            None
        }
    })?;
    Some(TermSize { rows: w.ws_row, cols: w.ws_col })
}
