//! Docker contexts end to end: `--context`, DOCKER_CONTEXT and the config's currentContext
//! select the engine, as with the Docker CLI, from a Docker config directory of the test's own.

use std::path::PathBuf;
use std::process::Output;

use crate::common::*;

/// The test's context, at the real engine; the Docker CLI keeps it under the sha256 of its name.
const CONTEXT: &str = "podrun-e2e";
const CONTEXT_DIR: &str = "4260780f886384aaee0f7128540b885e95c34e81afdee21817365fa14f68d471";
/// A context at a socket nothing listens on.
const NOWHERE: &str = "podrun-e2e-nowhere";
const NOWHERE_DIR: &str = "4993ce15f33b2785f35f9bdaff5158a26ab2a5345a358c2f57f7145c9da5e7fc";

const POD: &str = concat!(
    "\
apiVersion: v1
kind: Pod
metadata: {name: ctx}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: a
    image: busybox:1.28
    command: [sh, -c, '",
    loop_sh!(),
    "']
"
);

/// A Docker config directory (DOCKER_CONFIG) of the test's own, removed on drop.
struct DockerConfig(PathBuf);

impl DockerConfig {
    fn new(test: &str) -> DockerConfig {
        let dir = std::env::temp_dir().join(format!("podrun-e2e-context-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // The engine the other tests use: DOCKER_HOST, else the default socket.
        let engine = std::env::var("DOCKER_HOST")
            .ok()
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "unix:///var/run/docker.sock".into());
        let config = DockerConfig(dir);
        config.context(CONTEXT_DIR, CONTEXT, &engine);
        config.context(NOWHERE_DIR, NOWHERE, "unix:///nonexistent/podrun-context.sock");
        config
    }

    /// A context as `docker context create NAME --docker host=HOST` writes it.
    fn context(&self, dir: &str, name: &str, host: &str) {
        let meta = self.0.join("contexts/meta").join(dir);
        std::fs::create_dir_all(&meta).expect("context dir");
        let json = serde_json::json!({
            "Name": name,
            "Metadata": {},
            "Endpoints": {"docker": {"Host": host, "SkipTLSVerify": false}},
        });
        std::fs::write(meta.join("meta.json"), json.to_string()).expect("write meta.json");
    }

    fn current_context(&self, name: &str) {
        std::fs::write(self.0.join("config.json"), format!("{{\"currentContext\": \"{name}\"}}")).expect("config");
    }

    /// podrun with this config directory, DOCKER_HOST unset (empty is unset) and `env`.
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let dir = self.0.to_str().expect("utf-8 temp path");
        let mut all = vec![("DOCKER_CONFIG", dir), ("DOCKER_HOST", ""), ("DOCKER_CONTEXT", "")];
        all.extend_from_slice(env);
        podrun_env(args, None, &all)
    }
}

impl Drop for DockerConfig {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The pod names `get` lists.
fn listed(out: &Output) -> Vec<String> {
    assert_eq!(code(out), 0, "{}", stderr(out));
    stdout(out).lines().skip(1).filter_map(|l| l.split_whitespace().next()).map(str::to_owned).collect()
}

#[test]
fn e2e_context_flag_env_and_current_context_select_the_engine() {
    require_engine!();
    let ns = Namespace::new("context");
    let config = DockerConfig::new("select");
    let f = TempFile::new("pod.yaml", POD);

    let out = config.run(&["--context", CONTEXT, "apply", f.path(), "-n", ns.name(), "--timeout", "60s"], &[]);
    succeeded(&out);
    assert_eq!(ns.running(), 2, "the pod runs on the engine: {:?}", ns.containers());

    let get = ["get", "-n", ns.name()];
    assert_eq!(listed(&config.run(&[&["--context", CONTEXT][..], &get].concat(), &[])), ["ctx"]);
    assert_eq!(listed(&config.run(&get, &[("DOCKER_CONTEXT", CONTEXT)])), ["ctx"]);
    config.current_context(CONTEXT);
    assert_eq!(listed(&config.run(&get, &[])), ["ctx"]);

    // The context decides: one at a dead socket is an unreachable engine (3), named.
    let out = config.run(&get, &[("DOCKER_CONTEXT", NOWHERE)]);
    assert_eq!(code(&out), 3, "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("(context \"{NOWHERE}\")")), "{}", stderr(&out));
    // --context beats DOCKER_CONTEXT, and DOCKER_HOST beats DOCKER_CONTEXT.
    let out = config.run(&[&["--context", CONTEXT][..], &get].concat(), &[("DOCKER_CONTEXT", NOWHERE)]);
    assert_eq!(listed(&out), ["ctx"]);
    let engine = std::env::var("DOCKER_HOST").ok().filter(|h| !h.is_empty());
    let engine = engine.as_deref().unwrap_or("unix:///var/run/docker.sock");
    assert_eq!(listed(&config.run(&get, &[("DOCKER_CONTEXT", NOWHERE), ("DOCKER_HOST", engine)])), ["ctx"]);

    let out = config.run(&[&["--context", CONTEXT][..], &["delete", "ctx", "-n", ns.name()]].concat(), &[]);
    succeeded(&out);
    assert!(ns.containers().is_empty(), "{:?}", ns.containers());
}

#[test]
fn e2e_an_unknown_context_or_context_with_host_is_a_usage_error() {
    // Refused before any engine is contacted: no engine needed.
    let config = DockerConfig::new("unknown");
    let get = ["get", "-A"];

    let out = config.run(&[&["--context", "no-such-context"][..], &get].concat(), &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("context \"no-such-context\" does not exist"), "{}", stderr(&out));

    let out = config.run(&get, &[("DOCKER_CONTEXT", "no-such-context")]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("DOCKER_CONTEXT"), "{}", stderr(&out));

    // A currentContext that does not exist is an error too, as with the Docker CLI.
    config.current_context("no-such-context");
    let out = config.run(&get, &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("currentContext"), "{}", stderr(&out));

    let out = config.run(&[&["--context", CONTEXT, "-H", "unix:///var/run/docker.sock"][..], &get].concat(), &[]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("conflicting options: either specify --host or --context, not both"));
}
