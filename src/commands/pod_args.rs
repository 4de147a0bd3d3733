//! The pod arguments of `get`, `wait` and `describe` (and the one pod of `logs` and `exec`) as
//! kubectl reads them: bare names, the resource word first
//! (`pods`, `pod`, `po`) and then names, or `pods/NAME` (`pod/`, `po/`) for each. A word for
//! any other resource is refused with kubectl's error, as are the forms mixed.

use crate::exit::UsageError;

/// The resource words kubectl knows pods by.
const POD_WORDS: &[&str] = &["pods", "pod", "po"];

fn is_pod_word(s: &str) -> bool {
    POD_WORDS.iter().any(|w| s.eq_ignore_ascii_case(w))
}

/// The pod names `args` name; empty for every pod. A first word that is no resource word is
/// a pod's name, as podrun has always taken it.
pub fn pod_names(args: &[String]) -> Result<Vec<String>, UsageError> {
    let slashed = args.iter().filter(|a| a.contains('/')).count();
    if slashed > 0 && slashed < args.len() {
        return Err(UsageError::Said(
            "there is no need to specify a resource type as a separate argument when passing arguments in \
             resource/name form (e.g. 'podrun get resource/<resource_name>' instead of 'podrun get resource \
             resource/<resource_name>'"
                .to_owned(),
        ));
    }
    if slashed > 0 {
        return args.iter().map(|a| slashed_name(a)).collect();
    }
    match args.split_first() {
        Some((first, names)) if is_pod_word(first) => Ok(names.to_vec()),
        _ => Ok(args.to_vec()),
    }
}

/// The one pod a command takes: NAME, or `pod/NAME` as kubectl takes it (`logs pod/web`).
pub fn pod_name(arg: &str) -> Result<String, UsageError> {
    if arg.contains('/') {
        slashed_name(arg)
    } else {
        Ok(arg.to_owned())
    }
}

/// `pod/NAME`'s name.
fn slashed_name(arg: &str) -> Result<String, UsageError> {
    match arg.split_once('/') {
        Some((kind, name)) if !kind.is_empty() && !name.is_empty() && !name.contains('/') => {
            if is_pod_word(kind) {
                Ok(name.to_owned())
            } else {
                Err(unknown_kind(kind))
            }
        }
        _ => Err(UsageError::Said("arguments in resource/name form must have a single resource and name".to_owned())),
    }
}

fn unknown_kind(kind: &str) -> UsageError {
    UsageError::Said(format!(
        "the server doesn't have a resource type {:?} (podrun runs pods only: pods, pod, po)",
        crate::escape::escape(kind)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pod_is_a_name_or_pod_slash_name() {
        assert_eq!(pod_name("web").unwrap(), "web");
        assert_eq!(pod_name("pod/web").unwrap(), "web");
        assert_eq!(pod_name("po/web").unwrap(), "web");
        assert!(pod_name("svc/web").is_err());
        assert!(pod_name("pod/").is_err());
    }

    fn names(args: &[&str]) -> Result<Vec<String>, String> {
        pod_names(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>()).map_err(|e| e.to_string())
    }

    #[test]
    fn kubectls_forms_name_the_same_pods() {
        for (args, want) in [
            (&[][..], &[][..]),
            (&["pods"], &[]),
            (&["po"], &[]),
            (&["Pod"], &[]),
            (&["web"], &["web"]),
            (&["web", "db"], &["web", "db"]),
            (&["pod", "web", "db"], &["web", "db"]),
            (&["pods", "web"], &["web"]),
            (&["pod/web", "po/db", "pods/x"], &["web", "db", "x"]),
        ] {
            assert_eq!(names(args).expect("taken"), want, "{args:?}");
        }
    }

    #[test]
    fn mixed_forms_and_other_resources_are_kubectls_errors() {
        for (args, said) in [
            (&["pod", "pod/web"][..], "there is no need to specify a resource type"),
            (&["pod/web", "db"], "there is no need to specify a resource type"),
            (&["svc/web"], "the server doesn't have a resource type \"svc\""),
            (&["pod/"], "must have a single resource and name"),
            (&["/web"], "must have a single resource and name"),
            (&["pod/a/b"], "must have a single resource and name"),
        ] {
            let e = names(args).expect_err("refused");
            assert!(e.contains(said), "{args:?}: {e}");
        }
    }
}
