//! Running a Docker credential helper (`docker-credential-<name> get`, the
//! docker-credential-helpers protocol): found on PATH by name only, fed the server on stdin,
//! bounded in time and output, and read without ever showing what it printed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use serde::Deserialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use super::{AuthError, Credentials, JsonProblem};

/// What a credential helper prints (exiting non-zero) when it has nothing for the server:
/// not an error, the registry is then pulled from anonymously.
const HELPER_NOT_FOUND: &str = "credentials not found in native keychain";
/// The helper `Username` that marks `Secret` as an identity (refresh) token.
const TOKEN_USERNAME: &str = "<token>";
const HELPER_PREFIX: &str = "docker-credential-";
pub(super) const HELPER_TIMEOUT: Duration = Duration::from_secs(10);
/// More than any helper's answer; a runaway helper must not fill memory.
const HELPER_MAX_OUTPUT: u64 = 1 << 20;

/// The helper's `get` answer. Go decodes it by field name, case-insensitively; helpers write
/// these spellings.
#[derive(Deserialize)]
struct HelperAnswer {
    #[serde(rename = "Username", default)]
    username: String,
    #[serde(rename = "Secret", default)]
    secret: String,
}

/// `program` in one of `path_env`'s directories, as an executable file. Empty entries (the
/// current directory) are skipped, as Go's LookPath refuses them.
fn find_on_path(program: &str, path_env: Option<&OsStr>) -> Option<PathBuf> {
    let path_env = path_env.map(OsStr::to_os_string).or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path_env)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Runs `docker-credential-<name> get` with `server` on stdin (no newline, as Docker writes
/// it), killing it after `timeout`.
pub(super) async fn run_helper(
    name: &str,
    server: &str,
    path_env: Option<&OsStr>,
    timeout: Duration,
) -> Result<Option<Credentials>, AuthError> {
    let helper = format!("{HELPER_PREFIX}{name}");
    // A name is a suffix, never a path: a config must not run an arbitrary file.
    if name.contains(['/', '\0']) {
        return Err(AuthError::HelperMissing { helper });
    }
    let Some(program) = find_on_path(&helper, path_env) else {
        return Err(AuthError::HelperMissing { helper });
    };
    let (status, output) = run_bounded(&program, server.as_bytes(), timeout).await.map_err(|e| match e {
        RunError::Start(e) => {
            AuthError::HelperStart { helper: helper.clone(), source: crate::runtime::Cause(std::sync::Arc::new(e)) }
        }
        RunError::Timeout => AuthError::HelperTimeout { helper: helper.clone(), seconds: timeout.as_secs() },
    })?;
    if !status.success() {
        if String::from_utf8_lossy(&output).trim() == HELPER_NOT_FOUND {
            return Ok(None);
        }
        // Not the helper's output: a broken helper may echo anything, secrets included.
        return Err(AuthError::HelperFailed { helper, status: status.to_string() });
    }
    // Go's Decoder reads the first JSON value and ignores what follows; so does this.
    let answer = serde_json::Deserializer::from_slice(&output).into_iter::<HelperAnswer>().next();
    let answer = match answer {
        Some(Ok(answer)) => answer,
        Some(Err(e)) => return Err(AuthError::HelperOutput { helper, problem: JsonProblem::from(&e) }),
        None => return Err(AuthError::HelperOutput { helper, problem: JsonProblem::Empty }),
    };
    let creds = if answer.username == TOKEN_USERNAME {
        Credentials {
            username: String::new(),
            password: String::new(),
            server: server.to_owned(),
            identity_token: Some(answer.secret),
        }
    } else {
        Credentials {
            username: answer.username,
            password: answer.secret,
            server: server.to_owned(),
            identity_token: None,
        }
    };
    let empty = creds.username.is_empty()
        && creds.password.is_empty()
        && creds.identity_token.as_deref().unwrap_or("").is_empty();
    Ok(if empty { None } else { Some(creds) })
}

enum RunError {
    Start(std::io::Error),
    Timeout,
}

/// Runs `program get` with `input` on stdin; its exit status and stdout, unless it outlives
/// `timeout` (then it is killed). A child the helper left running may hold stdout open; the
/// deadline bounds that too.
async fn run_bounded(program: &Path, input: &[u8], timeout: Duration) -> Result<(ExitStatus, Vec<u8>), RunError> {
    let mut child = spawn_helper(program).await.map_err(RunError::Start)?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    let talk = async {
        if let Some(mut stdin) = stdin {
            // A helper may exit without reading; the broken pipe is its business, its status
            // tells. Dropping stdin closes it: the helper reads to end of input.
            let _ = stdin.write_all(input).await;
        }
        let mut out = Vec::new();
        if let Some(stdout) = stdout {
            let _ = stdout.take(HELPER_MAX_OUTPUT).read_to_end(&mut out).await;
        }
        child.wait().await.map(|status| (status, out))
    };
    let outcome = tokio::time::timeout(timeout, talk).await;
    match outcome {
        Ok(Ok(done)) => Ok(done),
        Ok(Err(e)) => {
            let _ = child.kill().await;
            Err(RunError::Start(e))
        }
        Err(_) => {
            // kill() also reaps it.
            let _ = child.kill().await;
            Err(RunError::Timeout)
        }
    }
}

async fn spawn_helper(program: &Path) -> std::io::Result<Child> {
    let mut attempts = 0;
    loop {
        let spawned = Command::new(program)
            .arg("get")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn();
        match spawned {
            // ETXTBSY: the helper was written a moment ago and a process forked elsewhere still
            // holds it open for writing (an install in progress, or a test writing its own).
            Err(e) if e.raw_os_error() == Some(26) && attempts < 5 => {
                attempts += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            other => return other,
        }
    }
}
