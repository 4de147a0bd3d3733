//! What `delete`'s arguments name: manifests (files, `-`, directories, URLs), or pods by name
//! with kubectl's resource words: `NAME...`, `pod NAME...` (`pods`, `po`), `pod/NAME...`.

use crate::exit::UsageError;
use crate::manifest::validate::is_dns1123_subdomain;

/// The words kubectl takes for the pod resource.
const POD_WORDS: [&str; 3] = ["pod", "pods", "po"];

/// One argument of `delete`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A manifest file, `-`, a directory or a URL.
    Manifest(String),
    /// A pod, by name.
    Pod(String),
}

fn is_pod_word(s: &str) -> bool {
    POD_WORDS.iter().any(|w| w.eq_ignore_ascii_case(s))
}

/// The name in `pod/NAME` (`pods/NAME`, `po/NAME`); None when `arg` is not of that form.
/// Another resource before the slash is an error: podrun deletes pods only.
fn slashed(arg: &str) -> Result<Option<&str>, UsageError> {
    let Some((kind, name)) = arg.split_once('/') else { return Ok(None) };
    if is_pod_word(kind) {
        return Ok(Some(name));
    }
    Err(UsageError::Said(format!("podrun deletes pods only: {arg:?} names a {kind:?}")))
}

fn pod(name: &str) -> Result<Target, UsageError> {
    if is_dns1123_subdomain(name) {
        Ok(Target::Pod(name.to_owned()))
    } else {
        Err(UsageError::Said(format!("{name:?} is neither a manifest file nor a valid pod name")))
    }
}

/// Reads `args` as kubectl does: a resource word first makes every other argument a pod name;
/// otherwise each is a manifest when `is_manifest` says so (an existing file or directory, `-`,
/// a URL), `pod/NAME`, or a pod name. A file of a pod's name wins, as it did before resource
/// words: `pod NAME` names the pod whatever files there are.
///
/// # Errors
/// A resource word alone, `pod/NAME` after one, another resource, or a name that is not a valid
/// pod name.
pub fn classify(args: &[String], is_manifest: impl Fn(&str) -> bool) -> Result<Vec<Target>, UsageError> {
    if let Some((first, rest)) = args.split_first().filter(|(first, _)| is_pod_word(first)) {
        if rest.is_empty() {
            return Err(UsageError::Said(format!(
                "resource(s) were provided, but no name was specified (podrun delete {first} NAME)"
            )));
        }
        return rest
            .iter()
            .map(|name| {
                if name.contains('/') {
                    return Err(UsageError::Said(format!(
                        "there is no need to specify a resource type as a separate argument when passing \
                         arguments in resource/name form (e.g. 'podrun delete pod/{}' instead of 'podrun delete \
                         {first} {name}')",
                        name.rsplit('/').next().unwrap_or_default()
                    )));
                }
                pod(name)
            })
            .collect();
    }
    args.iter()
        .map(|arg| {
            if is_manifest(arg) {
                return Ok(Target::Manifest(arg.clone()));
            }
            match slashed(arg)? {
                Some(name) => pod(name),
                None => pod(arg),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(args: &[&str]) -> Result<Vec<Target>, String> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        classify(&args, |a| a == "-" || a == "a.yaml" || a == "pods-dir").map_err(|e| e.to_string())
    }

    fn pods(names: &[&str]) -> Result<Vec<Target>, String> {
        Ok(names.iter().map(|n| Target::Pod((*n).to_owned())).collect())
    }

    #[test]
    fn kubectl_s_resource_words_and_several_names() {
        assert_eq!(of(&["a", "b"]), pods(&["a", "b"]));
        assert_eq!(of(&["pod", "web"]), pods(&["web"]));
        assert_eq!(of(&["pods", "a", "b"]), pods(&["a", "b"]));
        assert_eq!(of(&["po", "a"]), pods(&["a"]));
        assert_eq!(of(&["Pod", "a"]), pods(&["a"]));
        assert_eq!(of(&["pod/a", "pods/b", "po/c"]), pods(&["a", "b", "c"]));
        assert_eq!(of(&["pod", "pod"]), pods(&["pod"]), "a pod named pod, as kubectl names it");
        assert_eq!(of(&["pod", "x.yaml"]), pods(&["x.yaml"]), "after the word, every argument is a name");
        assert_eq!(
            of(&["a.yaml", "pod/b", "pods-dir"]),
            Ok(vec![Target::Manifest("a.yaml".into()), Target::Pod("b".into()), Target::Manifest("pods-dir".into())])
        );
    }

    #[test]
    fn what_kubectl_refuses_is_refused() {
        assert!(of(&["pods"]).unwrap_err().contains("no name was specified"));
        assert!(of(&["pod", "pod/a"]).unwrap_err().contains("resource/name form"));
        assert!(of(&["deployment/web"]).unwrap_err().contains("podrun deletes pods only"));
        assert!(of(&["pod/"]).unwrap_err().contains("nor a valid pod name"));
        assert!(of(&["Bad_Name"]).unwrap_err().contains("nor a valid pod name"));
        assert!(of(&["pod", "a/../b"]).is_err());
    }
}
