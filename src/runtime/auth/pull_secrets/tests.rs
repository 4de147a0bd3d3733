//! The pull-secret tests: formats, the kubelet's keyring order, and errors that never show a
//! secret.

use base64::Engine;

use super::*;

const PASSWORD: &str = "hunter2-very-secret";

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// A Secret as the caller would find it: name, type and decoded data.
#[derive(Clone)]
struct Secret {
    name: String,
    type_: Option<String>,
    data: BTreeMap<String, Vec<u8>>,
}

fn secret(name: &str, type_: Option<&str>, key: &str, value: &str) -> Secret {
    Secret {
        name: name.into(),
        type_: type_.map(Into::into),
        data: [(key.to_owned(), value.as_bytes().to_vec())].into(),
    }
}

/// A `kubernetes.io/dockerconfigjson` Secret with one `auth` entry per `(server, user)`.
fn config_json_secret(name: &str, entries: &[(&str, &str)]) -> Secret {
    let auths: serde_json::Map<String, serde_json::Value> = entries
        .iter()
        .map(|(server, user)| ((*server).to_owned(), serde_json::json!({ "auth": b64(&format!("{user}:{PASSWORD}")) })))
        .collect();
    let json = serde_json::json!({ "auths": auths }).to_string();
    secret(name, Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json)
}

/// The Secrets of namespace `ns`.
fn store(secrets: &[Secret]) -> Vec<Secret> {
    secrets.to_vec()
}

fn names(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// `from_pull_secrets` for the Secrets `secret_names`, looked up in `configs` (namespace `ns`)
/// as the driver looks them up in the pod's.
fn pull(
    image: &str,
    secret_names: &[String],
    namespace: &str,
    configs: &[Secret],
) -> Result<(Option<Credentials>, Vec<String>), AuthError> {
    let secrets: Vec<PullSecret> = secret_names
        .iter()
        .map(|name| PullSecret {
            name,
            found: configs.iter().find(|s| namespace == "ns" && s.name == *name).map(|s| SecretData {
                type_: s.type_.as_deref(),
                data: s.data.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect(),
            }),
        })
        .collect();
    from_pull_secrets(image, &secrets, namespace)
}

/// The user the pull secrets give for `image`, or None.
fn user_for(image: &str, secret_names: &[&str], configs: &[Secret]) -> Option<String> {
    let (creds, _) = pull(image, &names(secret_names), "ns", configs).unwrap();
    creds.map(|c| c.username)
}

#[test]
fn dockerconfigjson_secret_with_auth_wins_over_username_and_password() {
    let json = serde_json::json!({ "auths": { "registry.example.com": {
        "auth": b64(&format!("alice:{PASSWORD}")), "username": "ignored", "password": "ignored"
    }}});
    let configs = store(&[secret("pull", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json.to_string())]);
    let (creds, warnings) = pull("registry.example.com/team/app:1", &names(&["pull"]), "ns", &configs).unwrap();
    let creds = creds.unwrap();
    assert_eq!((creds.username.as_str(), creds.password.as_str()), ("alice", PASSWORD));
    assert_eq!(creds.server, "registry.example.com");
    assert_eq!(creds.identity_token, None);
    assert!(warnings.is_empty());
    // Another registry gets nothing from it.
    assert_eq!(user_for("quay.io/team/app", &["pull"], &configs), None);
}

#[test]
fn dockercfg_secret_is_the_bare_map_with_username_and_password() {
    let json = serde_json::json!({ "https://index.docker.io/v1/": { "username": "bob", "password": PASSWORD, "email": "b@x" }});
    let configs = store(&[secret("cfg", Some(TYPE_DOCKERCFG), KEY_DOCKERCFG, &json.to_string())]);
    let (creds, _) = pull("busybox", &names(&["cfg"]), "ns", &configs).unwrap();
    let creds = creds.unwrap();
    assert_eq!((creds.username.as_str(), creds.password.as_str()), ("bob", PASSWORD));
    assert_eq!(creds.server, "https://index.docker.io/v1/");
}

#[test]
fn url_shaped_keys_and_docker_hub_aliases() {
    let configs = store(&[
        config_json_secret("hub-v1", &[("https://index.docker.io/v1/", "hub-v1")]),
        config_json_secret("hub-bare", &[("docker.io", "hub-bare")]),
        config_json_secret("hub-api", &[("registry-1.docker.io", "hub-api")]),
        config_json_secret("local", &[("http://127.0.0.1:5000", "local")]),
        config_json_secret("v2", &[("https://registry.example.com/v2/", "v2")]),
    ]);
    // Every spelling of Docker Hub serves a Hub image.
    for s in ["hub-v1", "hub-bare", "hub-api"] {
        assert_eq!(user_for("busybox", &[s], &configs).as_deref(), Some(s));
        assert_eq!(user_for("docker.io/library/busybox:1", &[s], &configs).as_deref(), Some(s));
        assert_eq!(user_for("index.docker.io/someuser/app", &[s], &configs).as_deref(), Some(s));
        // ...and never another registry, `localhost` included (the kubelet would).
        assert_eq!(user_for("quay.io/x/y", &[s], &configs), None);
        assert_eq!(user_for("localhost/x", &[s], &configs), None);
    }
    // A direct match beats the index.docker.io fallback, as in the kubelet.
    assert_eq!(user_for("busybox", &["hub-v1", "hub-bare"], &configs).as_deref(), Some("hub-bare"));
    assert_eq!(user_for("127.0.0.1:5000/x/y@sha256:abcd", &["local"], &configs).as_deref(), Some("local"));
    // The port must match.
    assert_eq!(user_for("127.0.0.1:5001/x/y", &["local"], &configs), None);
    assert_eq!(user_for("127.0.0.1/x/y", &["local"], &configs), None);
    // `/v2/` (and `/v1/`) is the API prefix, not a repository path.
    assert_eq!(user_for("registry.example.com/a/b", &["v2"], &configs).as_deref(), Some("v2"));
}

#[test]
fn the_most_specific_key_wins_and_globs_match_one_label() {
    let configs = store(&[
        config_json_secret("broad", &[("quay.io", "broad"), ("*.example.com", "glob")]),
        config_json_secret("narrow", &[("quay.io/coreos", "narrow"), ("reg.example.com", "exact")]),
    ]);
    let both = ["broad", "narrow"];
    // A path-scoped key beats the bare host, whichever Secret comes first.
    assert_eq!(user_for("quay.io/coreos/etcd:v3", &both, &configs).as_deref(), Some("narrow"));
    assert_eq!(user_for("quay.io/other/x", &both, &configs).as_deref(), Some("broad"));
    // An exact host beats a glob; a glob matches a single label only.
    assert_eq!(user_for("reg.example.com/x", &both, &configs).as_deref(), Some("exact"));
    assert_eq!(user_for("other.example.com/x", &both, &configs).as_deref(), Some("glob"));
    assert_eq!(user_for("a.b.example.com/x", &both, &configs), None);
    assert_eq!(user_for("example.com/x", &both, &configs), None);
}

#[test]
fn secrets_are_used_in_the_order_listed() {
    let configs = store(&[
        config_json_secret("first", &[("registry.example.com", "first")]),
        // Another spelling of the same key: the same keyring slot, so list order decides.
        config_json_secret("second", &[("https://registry.example.com", "second")]),
    ]);
    let image = "registry.example.com/app";
    assert_eq!(user_for(image, &["first", "second"], &configs).as_deref(), Some("first"));
    assert_eq!(user_for(image, &["second", "first"], &configs).as_deref(), Some("second"));
}

#[test]
fn a_missing_secret_is_a_warning_and_the_next_one_is_used() {
    let configs = store(&[config_json_secret("present", &[("registry.example.com", "present")])]);
    let (creds, warnings) = pull("registry.example.com/app", &names(&["gone", "", "present"]), "ns", &configs).unwrap();
    assert_eq!(creds.unwrap().username, "present");
    // One warning, for the missing Secret; the empty name is skipped silently.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("ns/gone"), "{warnings:?}");
    // Secrets are looked up in the pod's namespace only.
    let (creds, warnings) = pull("registry.example.com/app", &names(&["present"]), "other", &configs).unwrap();
    assert!(creds.is_none() && warnings.len() == 1);
}

#[test]
fn a_secret_of_another_type_is_an_error_naming_it_not_its_content() {
    let json = serde_json::json!({ "auths": { "registry.example.com": { "username": "u", "password": PASSWORD }}});
    for type_ in [None, Some("Opaque"), Some("kubernetes.io/basic-auth")] {
        let configs = store(&[secret("wrong", type_, KEY_DOCKER_CONFIG_JSON, &json.to_string())]);
        let err = pull("registry.example.com/x", &names(&["wrong"]), "ns", &configs).unwrap_err();
        assert!(matches!(err, AuthError::SecretType { .. }), "{err:?}");
        let (shown, debug) = (err.to_string(), format!("{err:?}"));
        assert!(shown.contains("ns/wrong") && shown.contains(type_.unwrap_or("Opaque")), "{shown}");
        assert!(!shown.contains(PASSWORD) && !debug.contains(PASSWORD), "{shown} {debug}");
    }
}

#[test]
fn broken_docker_config_json_is_an_error_naming_the_secret_not_its_content() {
    let cases = [
        // Not JSON; then JSON of the wrong shape quoting the password.
        format!("{{\"auths\": {{\"r.io\": {{\"password\": \"{PASSWORD}\""),
        format!("{{\"auths\": \"{PASSWORD}\"}}"),
        format!("{{\"auths\": {{\"r.io\": {{\"password\": [\"{PASSWORD}\"]}}}}}}"),
    ];
    for json in cases {
        let configs = store(&[secret("broken", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json)]);
        let err = pull("r.io/x", &names(&["broken"]), "ns", &configs).unwrap_err();
        assert!(matches!(err, AuthError::SecretJson { .. }), "{err:?}");
        let (shown, debug) = (err.to_string(), format!("{err:?}"));
        assert!(shown.contains("ns/broken") && shown.contains(".dockerconfigjson"), "{shown}");
        assert!(!shown.contains(PASSWORD) && !debug.contains(PASSWORD), "{shown} {debug}");
    }
    // An `auth` that is not base64 of user:password names its server.
    let json = serde_json::json!({ "auths": { "r.io": { "auth": b64(PASSWORD) }}});
    let configs = store(&[secret("badauth", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, &json.to_string())]);
    let err = pull("quay.io/x", &names(&["badauth"]), "ns", &configs).unwrap_err();
    assert_eq!(err, AuthError::SecretAuth { namespace: "ns".into(), name: "badauth".into(), server: "r.io".into() });
    assert!(!format!("{err} {err:?}").contains(PASSWORD));
    // A broken Secret listed after a matching one still fails: the kubelet parses them all.
    let configs = store(&[
        config_json_secret("good", &[("r.io", "good")]),
        secret("broken", Some(TYPE_DOCKERCFG), KEY_DOCKERCFG, "nope"),
    ]);
    assert!(pull("r.io/x", &names(&["good", "broken"]), "ns", &configs).is_err());
}

#[test]
fn empty_entries_and_null_values_are_skipped() {
    let json = r#"{"auths": {"r.io": {}, "q.io": null, "s.io": {"username": null, "auth": ""}}, "HttpHeaders": {}}"#;
    let configs = store(&[
        secret("empty", Some(TYPE_DOCKER_CONFIG_JSON), KEY_DOCKER_CONFIG_JSON, json),
        config_json_secret("real", &[("r.io", "real")]),
    ]);
    assert_eq!(user_for("r.io/x", &["empty", "real"], &configs).as_deref(), Some("real"));
    assert_eq!(user_for("q.io/x", &["empty"], &configs), None);
}
