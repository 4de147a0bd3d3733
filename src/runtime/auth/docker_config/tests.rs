//! The Docker config tests: `auths` keys, Docker Hub's names, credential helpers run for real
//! (shell scripts on a private PATH), and errors that never show a secret.

use std::time::Instant;

use base64::Engine;

use super::*;

const PASSWORD: &str = "hunter2-very-secret";

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// A Docker config directory (and a PATH directory for credential helpers).
struct TempDir(crate::test_support::TempDir);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        TempDir(crate::test_support::TempDir::new(&format!("auth-{tag}")))
    }

    fn config(&self, json: &str) -> &Path {
        std::fs::write(self.0.join("config.json"), json).unwrap();
        &self.0
    }

    /// An executable `docker-credential-<name>` shell script in this directory.
    #[cfg(unix)]
    fn helper(&self, name: &str, body: &str) {
        use std::os::unix::fs::PermissionsExt;
        let path = self.0.join(format!("docker-credential-{name}"));
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn path_env(&self) -> Option<&OsStr> {
        Some(self.0.as_os_str())
    }
}

/// A helper that answers for `reg.example.com` with a password, for Docker Hub with an
/// identity token, and "not found" otherwise; it checks it was asked `get`.
const STORE_HELPER: &str = r#"[ "$1" = get ] || exit 9
server=$(cat)
case "$server" in
  reg.example.com) printf '{"ServerURL":"%s","Username":"alice-%s","Secret":"store-pw"}' "$server" "$1" ;;
  https://index.docker.io/v1/) printf '{"ServerURL":"%s","Username":"<token>","Secret":"tok-123"}\n' "$server" ;;
  *) echo "credentials not found in native keychain"; exit 1 ;;
esac"#;

#[tokio::test]
async fn no_config_file_is_none_and_an_empty_one_too() {
    let dir = TempDir::new("none");
    assert_eq!(from_docker_config_at("busybox", &dir.0, dir.path_env()).await, Ok(None));
    assert_eq!(from_docker_config_at("busybox", &dir.0.join("absent"), dir.path_env()).await, Ok(None));
    let at = dir.config("  \n");
    assert_eq!(from_docker_config_at("busybox", at, dir.path_env()).await, Ok(None));
}

#[tokio::test]
async fn docker_config_auths_by_docker_keys() {
    let dir = TempDir::new("auths");
    let json = serde_json::json!({ "auths": {
        "https://index.docker.io/v1/": { "auth": b64(&format!("hub:{PASSWORD}")) },
        "https://registry.example.com/v2/": { "username": "reg", "password": PASSWORD },
        "127.0.0.1:5000": { "identitytoken": "tok-xyz" },
        "desktop.example.com": {},
    }});
    let at = dir.config(&json.to_string());
    let get = async |image: &str| from_docker_config_at(image, at, dir.path_env()).await.unwrap();
    let hub = get("busybox").await.unwrap();
    assert_eq!((hub.username.as_str(), hub.password.as_str()), ("hub", PASSWORD));
    assert_eq!(hub.server, "https://index.docker.io/v1/");
    // A URL-shaped key serves its host (Docker's legacy-key rule).
    let reg = get("registry.example.com/team/app:1").await.unwrap();
    assert_eq!((reg.username.as_str(), reg.server.as_str()), ("reg", "https://registry.example.com/v2/"));
    let tok = get("127.0.0.1:5000/x").await.unwrap();
    assert_eq!(tok.identity_token.as_deref(), Some("tok-xyz"));
    // A `{}` marker (Docker Desktop's) and an unknown registry: nothing.
    assert_eq!(get("desktop.example.com/x").await, None);
    assert_eq!(get("quay.io/x").await, None);
}

#[tokio::test]
async fn docker_config_hub_aliases() {
    let dir = TempDir::new("alias");
    let at =
        dir.config(&serde_json::json!({ "auths": { "docker.io": { "username": "u", "password": "p" }}}).to_string());
    let hub = from_docker_config_at("library/busybox", at, dir.path_env()).await.unwrap().unwrap();
    assert_eq!((hub.username.as_str(), hub.server.as_str()), ("u", "docker.io"));
    assert_eq!(from_docker_config_at("localhost/busybox", at, dir.path_env()).await.unwrap(), None);
}

#[tokio::test]
async fn broken_docker_config_is_an_error_naming_the_file_not_its_content() {
    let dir = TempDir::new("broken");
    let at = dir.config(&format!("{{\"auths\": {{\"r.io\": {{\"password\": [\"{PASSWORD}\"]}}}}}}"));
    let err = from_docker_config_at("r.io/x", at, dir.path_env()).await.unwrap_err();
    assert!(matches!(err, AuthError::ConfigJson { .. }), "{err:?}");
    let shown = format!("{err} {err:?}");
    assert!(shown.contains("config.json") && !shown.contains(PASSWORD), "{shown}");

    let at = dir.config(&serde_json::json!({ "auths": { "r.io": { "auth": b64(PASSWORD) }}}).to_string());
    let err = from_docker_config_at("r.io/x", at, dir.path_env()).await.unwrap_err();
    assert!(matches!(&err, AuthError::ConfigAuth { server, .. } if server == "r.io"), "{err:?}");
    assert!(!format!("{err} {err:?}").contains(PASSWORD));
}

#[cfg(unix)]
#[tokio::test]
async fn creds_store_runs_the_helper_with_the_server_on_stdin() {
    let dir = TempDir::new("store");
    dir.helper("fake", STORE_HELPER);
    let at =
        dir.config(r#"{"credsStore": "fake", "auths": {"reg.example.com": {"username": "file", "password": "file"}}}"#);
    let creds = from_docker_config_at("reg.example.com/app:1", at, dir.path_env()).await.unwrap().unwrap();
    // The username echoes the argument: the helper was run as `get`.
    assert_eq!((creds.username.as_str(), creds.password.as_str()), ("alice-get", "store-pw"));
    assert_eq!(creds.server, "reg.example.com");
    // Docker Hub is asked about by its index URL; `<token>` makes the Secret a token.
    let hub = from_docker_config_at("busybox", at, dir.path_env()).await.unwrap().unwrap();
    assert_eq!(hub.identity_token.as_deref(), Some("tok-123"));
    assert_eq!((hub.username.as_str(), hub.password.as_str()), ("", ""));
    assert_eq!(hub.server, "https://index.docker.io/v1/");
    // "Not found" from the store is no credentials, not an error.
    assert_eq!(from_docker_config_at("quay.io/x", at, dir.path_env()).await, Ok(None));
}

#[cfg(unix)]
#[tokio::test]
async fn cred_helpers_come_before_the_creds_store() {
    let dir = TempDir::new("helpers");
    dir.helper("fake", STORE_HELPER);
    dir.helper("special", r#"printf '{"ServerURL":"x","Username":"special","Secret":"special-pw"}'"#);
    let json = r#"{"credsStore": "fake", "credHelpers": {"reg.example.com": "special", "plain.example.com": ""},
                   "auths": {"plain.example.com": {"username": "plain", "password": "p"}}}"#;
    let at = dir.config(json);
    let get = async |image: &str| from_docker_config_at(image, at, dir.path_env()).await.unwrap().map(|c| c.username);
    assert_eq!(get("reg.example.com/app").await.as_deref(), Some("special"));
    // Other registries still go to the store...
    assert_eq!(get("busybox").await, Some(String::new()));
    // ...except one whose helper is "", which Docker reads from `auths`.
    assert_eq!(get("plain.example.com/app").await.as_deref(), Some("plain"));
}

#[cfg(unix)]
#[tokio::test]
async fn a_failing_helper_is_an_error_naming_it_and_its_status_not_its_output() {
    let dir = TempDir::new("fail");
    dir.helper("broken", &format!("cat >/dev/null; echo 'leaked {PASSWORD}'; exit 3"));
    let at = dir.config(r#"{"credsStore": "broken"}"#);
    let err = from_docker_config_at("busybox", at, dir.path_env()).await.unwrap_err();
    assert!(matches!(err, AuthError::HelperFailed { .. }), "{err:?}");
    let shown = err.to_string();
    assert!(shown.contains("docker-credential-broken") && shown.contains('3'), "{shown}");
    assert!(!format!("{shown} {err:?}").contains(PASSWORD), "{shown}");

    // Output that is not the protocol's JSON: an error by position, without the content.
    dir.helper("garbled", &format!("echo '{{\"Username\": [\"{PASSWORD}\"]}}'"));
    let at = dir.config(r#"{"credsStore": "garbled"}"#);
    let err = from_docker_config_at("busybox", at, dir.path_env()).await.unwrap_err();
    assert!(matches!(err, AuthError::HelperOutput { .. }), "{err:?}");
    assert!(!format!("{err} {err:?}").contains(PASSWORD));
}

#[cfg(unix)]
#[tokio::test]
async fn a_missing_helper_is_an_error_and_a_helper_name_is_never_a_path() {
    let dir = TempDir::new("missing");
    let at = dir.config(r#"{"credsStore": "nowhere"}"#);
    let err = from_docker_config_at("busybox", at, dir.path_env()).await.unwrap_err();
    assert_eq!(err, AuthError::HelperMissing { helper: "docker-credential-nowhere".into() });
    // A script outside the search path, reached by a name with a slash: refused.
    std::fs::create_dir(dir.0.join("sub")).unwrap();
    dir.helper("x", "echo '{}'");
    std::fs::rename(dir.0.join("docker-credential-x"), dir.0.join("sub").join("docker-credential-x")).unwrap();
    let at = dir.config(r#"{"credsStore": "../sub/x"}"#);
    assert!(matches!(from_docker_config_at("busybox", at, dir.path_env()).await, Err(AuthError::HelperMissing { .. })));
}

#[cfg(unix)]
#[tokio::test]
async fn a_helper_that_hangs_is_killed_at_the_deadline() {
    let dir = TempDir::new("hang");
    dir.helper("slow", "exec sleep 30");
    let at = dir.config(r#"{"credsStore": "slow"}"#);
    let started = Instant::now();
    let err = lookup_docker_config("busybox", at, dir.path_env(), Duration::from_secs(1)).await.unwrap_err();
    assert_eq!(err, AuthError::HelperTimeout { helper: "docker-credential-slow".into(), seconds: 1 });
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}
