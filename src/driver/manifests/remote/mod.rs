//! Manifests from `http://` and `https://` URLs, as a kubelet reads its `--manifest-url`
//! (`pkg/kubelet/config/http.go`, `sourceURL`, re-read every `--http-check-frequency`, 20 s): each
//! URL given to apply, validate or delete is fetched (`fetch`) before the manifests load, and
//! its answer is then read as a file's text would be, under the URL's name (as given, its
//! password hidden: `address::shown`), so an error names the URL, line and column as it names
//! a file's; the listing names it so too, and the store below is keyed by that name.
//!
//! The last good answer of each URL is kept for the life of the process, across supervision's
//! start-overs: under `apply --supervise` a URL that cannot be read now (no answer, a 404, too
//! large), or whose new answer does not load, keeps serving its last good answer, so its pods
//! stay as they were, as a kubelet keeps its last good pod list; why is said once per change
//! of reason. A URL that was never
//! read has no manifest: one-shot commands stop there (exit 2), supervision leaves it out as it
//! leaves out a file that does not load, and reads it again every 20 s.

pub mod address;
pub mod fetch;
pub mod header;

use std::collections::BTreeMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

use crate::error_chain::chain;
use crate::manifest::yaml::input::MAX_INPUT_BYTES;
use crate::manifest::{ManifestError, Source};

pub use address::is_url;
pub use header::Header;

/// What is known of one URL source.
#[derive(Debug, Default)]
struct Known {
    /// Its last good answer.
    good: Option<Source>,
    /// Why the last read failed, if it did (and that read's error, for a source never read).
    failing: Option<Failure>,
}

#[derive(Debug, Clone)]
enum Failure {
    TooLarge,
    Unreadable(String),
    /// Read, but it does not load (said only while a last good answer stands in for it).
    DoesNotLoad(String),
}

impl Failure {
    fn reason(&self) -> String {
        match self {
            Failure::TooLarge => {
                format!(
                    "cannot be read: larger than {} MiB, the most podrun reads from one input",
                    MAX_INPUT_BYTES >> 20
                )
            }
            Failure::Unreadable(why) => format!("cannot be read: {why}"),
            Failure::DoesNotLoad(why) => format!("its new version does not load: {why}"),
        }
    }
}

/// Whether a new answer loads, to replace a last good one (supervision's check); without one,
/// any answer that could be read replaces it, and the load says what is wrong with it.
pub type Check<'a> = &'a dyn Fn(&Source) -> Result<(), ManifestError>;

/// Every URL source read by this process, by the name it goes by (`address::shown`).
static KNOWN: LazyLock<Mutex<BTreeMap<String, Known>>> = LazyLock::new(Mutex::default);

fn known() -> MutexGuard<'static, BTreeMap<String, Known>> {
    // Each update is one insert or assignment: a panic elsewhere leaves the map whole.
    KNOWN.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Reads every URL among `args` again, in turn. A read that fails, or (with `check`) an
/// answer that does not load, keeps the last good answer; `warn` hears why when a source that
/// has one fails, or fails for another reason than before (a source never read is said by the
/// load that leaves it out).
pub async fn refresh(args: &[String], headers: &[Header], check: Option<Check<'_>>, warn: &dyn Fn(&str)) {
    for arg in args.iter().filter(|a| is_url(a)) {
        let name = address::shown(arg);
        let result = read(arg, headers).await;
        let had_good = known().get(&name).is_some_and(|k| k.good.is_some());
        let result = match (result, check) {
            (Ok(source), Some(check)) if had_good => match check(&source) {
                Ok(()) => Ok(source),
                Err(e) => Err(Failure::DoesNotLoad(chain(&e))),
            },
            (result, _) => result,
        };
        let mut known = known();
        let entry = known.entry(name.clone()).or_default();
        match result {
            Ok(source) => {
                entry.good = Some(source);
                entry.failing = None;
            }
            Err(failure) => {
                let said_before = entry.failing.as_ref().map(Failure::reason);
                let reason = failure.reason();
                if said_before.as_ref() != Some(&reason) && (entry.good.is_some() || said_before.is_some()) {
                    let kept = if entry.good.is_some() { "its last good version stays" } else { "still left out" };
                    warn(&format!("{name}: {reason}; {kept}"));
                }
                entry.failing = Some(failure);
            }
        }
    }
}

/// One read of the URL `arg`, as the source podrun loads.
async fn read(arg: &str, headers: &[Header]) -> Result<Source, Failure> {
    let url = address::parse(arg).map_err(|e| Failure::Unreadable(e.to_string()))?;
    match fetch::get(&url, headers, MAX_INPUT_BYTES).await {
        Ok(bytes) => Ok(Source::decode(address::shown(arg), bytes)),
        Err(fetch::FetchError::TooLarge(_)) => Err(Failure::TooLarge),
        Err(e) => Err(Failure::Unreadable(chain(&e))),
    }
}

/// The source of the URL named `name` (see `address::shown`) as last read: its last good
/// answer, or why it has none. None when `name` is not a URL.
pub fn source(name: &str) -> Option<Result<Source, ManifestError>> {
    if !is_url(name) {
        return None;
    }
    let known = known();
    let entry = known.get(name);
    let file = name.to_owned();
    Some(match (entry.and_then(|k| k.good.clone()), entry.and_then(|k| k.failing.clone())) {
        (Some(good), _) => Ok(good),
        (None, Some(Failure::TooLarge)) => Err(ManifestError::TooLarge { file, cap_mib: MAX_INPUT_BYTES >> 20 }),
        (None, Some(Failure::Unreadable(why) | Failure::DoesNotLoad(why))) => {
            Err(ManifestError::Read { file, source: std::io::Error::other(why) })
        }
        (None, None) => Err(ManifestError::Read { file, source: std::io::Error::other("not fetched") }),
    })
}

/// What the last good answer of the URL named `name` looks like from outside, for
/// supervision's watch: its length and a hash of its text; zeros while it has none.
pub fn stamp(name: &str) -> (u64, u64) {
    known()
        .get(name)
        .and_then(|k| k.good.as_ref())
        .map_or((0, 0), |s| (s.text.len() as u64, crate::fnv::fnv1a64(s.text.as_bytes())))
}

/// Reads a listed manifest: a URL from what `refresh` read, else the file (or `-`).
pub fn read_source(name: &str) -> Result<Source, ManifestError> {
    source(name).unwrap_or_else(|| Source::read(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A loopback server answering each connection with the next of `answers` (status, body).
    async fn serve(answers: Vec<(u16, &'static str)>) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://127.0.0.1:{}/pods.yaml", listener.local_addr().unwrap().port());
        tokio::spawn(async move {
            for (status, body) in answers {
                let (mut s, _) = listener.accept().await.unwrap();
                let mut buf = [0u8; 4096];
                let _ = s.read(&mut buf).await;
                let head =
                    format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
                let _ = s.write_all(format!("{head}{body}").as_bytes()).await;
            }
        });
        url
    }

    #[tokio::test]
    async fn the_last_good_answer_stays_and_each_new_reason_is_said_once() {
        let url = serve(vec![(200, "a: 1\n"), (404, ""), (404, ""), (500, ""), (200, "bad"), (200, "a: 2\n")]).await;
        let said = RefCell::new(Vec::new());
        let warn = |w: &str| said.borrow_mut().push(w.to_owned());
        let check =
            |s: &Source| if s.text == "bad" { Err(ManifestError::NoPod { file: s.name.clone() }) } else { Ok(()) };
        let args = [url.clone()];
        let text = || source(&url).unwrap().unwrap().text;
        for _ in 0..5 {
            refresh(&args, &[], Some(&check), &warn).await;
            assert_eq!(text(), "a: 1\n", "the last good answer: {:?}", said.borrow());
        }
        let said = said.take();
        assert_eq!(said.len(), 3, "404 once, 500, the bad answer: {said:?}");
        assert!(said[0].ends_with("cannot be read: the server answered 404 Not Found; its last good version stays"));
        assert!(said[2].contains("its new version does not load: "), "{said:?}");
        refresh(&args, &[], Some(&check), &|w| panic!("{w}")).await;
        assert_eq!(text(), "a: 2\n", "mended");
        assert_ne!(stamp(&url), (0, 0));
    }

    #[tokio::test]
    async fn a_changed_config_url_is_checked_against_the_other_sources_not_itself() {
        const V1: &str = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: one}\n";
        const V2: &str = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {k: two}\n";
        let url = serve(vec![(200, V1), (200, V2)]).await;
        let configs = [url.clone()];
        let opts = crate::manifest::LoadOptions::default();
        let check = |s: &Source| super::super::static_dir::loads(s, &configs, &opts);
        refresh(&configs, &[], Some(&check), &|w| panic!("{w}")).await;
        refresh(&configs, &[], Some(&check), &|w| panic!("the new version is refused: {w}")).await;
        assert_eq!(source(&url).unwrap().unwrap().text, V2, "taken");
    }

    #[tokio::test]
    async fn a_url_never_read_is_an_error_naming_it() {
        let url = serve(vec![(404, "")]).await;
        refresh(std::slice::from_ref(&url), &[], None, &|w| panic!("said by the load: {w}")).await;
        let e = crate::error_chain::chain(&source(&url).unwrap().unwrap_err());
        assert_eq!(e, format!("{url}: cannot read: the server answered 404 Not Found"));
        assert_eq!(stamp(&url), (0, 0));
        assert!(source("pod.yaml").is_none(), "a path is not a URL source");
    }
}
