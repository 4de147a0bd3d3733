//! The pod's hostname on every local engine, after the Kubernetes e2e tests of
//! `hostnameOverride` (HostnameOverride, beta and on by default since 1.35) and
//! `setHostnameAsFQDN` (test/e2e/common/node): `hostname` in a container prints the override,
//! or the FQDN, and /etc/hosts names it.

use std::process::Output;

use crate::common::*;

fn run(target: Target, args: &[&str]) -> Output {
    target.podrun(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
}

/// A pod printing its hostname and its /etc/hosts line for the pod's address, with `spec`.
fn pod(spec: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: hn}}\nspec:\n  restartPolicy: Never\n{spec}  containers:\n  \
         - {{name: c, image: busybox, command: [sh, -c, 'hostname; grep -v -e localhost -e ip6- -e \"^#\" /etc/hosts']}}\n"
    )
}

fn hostname_of(target: Target, ns: &Namespace, spec: &str) -> (String, String) {
    let f = TempFile::new("hn.yaml", &pod(spec));
    let o = run(target, &["apply", f.path(), "-n", ns.name(), "--timeout", "120s"]);
    assert_eq!(code(&o), 0, "{}: {}", target.name(), stderr(&o));
    let logs = stdout(&run(target, &["logs", "hn", "-n", ns.name()]));
    let o = run(target, &["delete", "hn", "-n", ns.name()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut lines = logs.lines();
    let hostname = lines.next().unwrap_or_default().to_owned();
    (hostname, lines.collect::<Vec<_>>().join("\n"))
}

fn hostname_override_and_fqdn(target: Target, ns: &Namespace) {
    let (hostname, hosts) =
        hostname_of(target, ns, "  hostname: ignored\n  subdomain: sub\n  hostnameOverride: my.host.example\n");
    assert_eq!(hostname, "my.host.example", "{}", target.name());
    assert!(hosts.ends_with("\tmy.host.example"), "{}: {hosts}", target.name());
    let (hostname, hosts) = hostname_of(target, ns, "  hostname: h\n  subdomain: sub\n  setHostnameAsFQDN: true\n");
    let fqdn = format!("h.sub.{}.svc.cluster.local", ns.name());
    assert_eq!(hostname, fqdn, "{}", target.name());
    assert!(hosts.ends_with(&format!("\t{fqdn}\th")), "{}: {hosts}", target.name());
    // Without setHostnameAsFQDN, the short name, with the FQDN in /etc/hosts.
    let (hostname, hosts) = hostname_of(target, ns, "  hostname: h\n  subdomain: sub\n");
    assert_eq!(hostname, "h", "{}", target.name());
    assert!(hosts.ends_with(&format!("\t{fqdn}\th")), "{}: {hosts}", target.name());
}

#[test]
fn docker_hostname_override_and_fqdn() {
    require_engine!();
    let ns = Namespace::new("hn-docker");
    hostname_override_and_fqdn(Target::Engine(None), &ns);
}

#[test]
fn podman_hostname_override_and_fqdn() {
    require_podman!(host);
    let ns = Namespace::on(Some(&host), "hn-podman");
    hostname_override_and_fqdn(Target::Engine(Some(&host)), &ns);
}

#[test]
fn cri_hostname_override_and_fqdn() {
    require_cri!(endpoint);
    let ns = Namespace::on_cri(&endpoint, "hn-cri");
    hostname_override_and_fqdn(Target::Cri(&endpoint), &ns);
}

/// Refused before anything is made, as the API server (the override with hostNetwork) and the
/// kubelet (an FQDN past 64 characters) refuse them.
#[test]
fn refusals_create_nothing() {
    require_engine!();
    let ns = Namespace::new("hn-refused");
    for (spec, said) in [
        ("  hostNetwork: true\n  hostnameOverride: box\n", "may not be set when `hostNetwork` is true"),
        ("  setHostnameAsFQDN: true\n  hostnameOverride: box\n", "may not be set when `setHostnameAsFQDN` is true"),
        (
            "  hostname: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n  subdomain: sub\n  setHostnameAsFQDN: true\n",
            "is too long (64 characters is the max",
        ),
    ] {
        let f = TempFile::new("hn.yaml", &pod(spec));
        let o = podrun(&["apply", f.path(), "-n", ns.name()], None);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert!(stderr(&o).contains(said), "{}", stderr(&o));
        assert!(ns.containers().is_empty());
    }
}
