//! Nothing from a manifest, an image or an engine reaches a terminal raw: escape sequences in an
//! image name, an annotation, a hostPath, a file name, a map key of a field path and a
//! container's termination message come out of podrun escaped (`\x1b`, `\u{9b}`), on stdout and
//! stderr alike, read here as bytes; `-o json` stays exact, and a container's own output
//! (`logs`) stays byte for byte what it wrote. On Docker and on the CRI runtime; the validate
//! test needs no engine.

use std::process::Output;

use crate::common::*;

/// The sequences of the attack: retitle the terminal (OSC 0 ending in BEL), clear it (CSI 2J),
/// and a CSI in its one-character C1 form (U+009B), as YAML escapes them.
const ATTACK_YAML: &str = r"\e]0;owned\a\e[2J\u009b31m";
/// The same, as podrun prints them.
const ESCAPED: &str = r"\x1b]0;owned\x07\x1b[2J\u{9b}31m";
/// The same, as the container's shell writes them (busybox printf: octal, the C1 in UTF-8).
const ATTACK_PRINTF: &str = r"\033]0;owned\007\033[2J\302\23331m";
const RAW: &str = "\x1b]0;owned\x07\x1b[2J\u{9b}31m";

/// Fails unless podrun's stdout and stderr hold no control character but newlines: no ESC, no
/// BEL, no C1 (U+009B is `C2 9B` in UTF-8).
fn clean(what: &str, out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert!(!bytes.contains(&0x1b) && !bytes.contains(&0x07), "{what}: raw ESC or BEL on {stream}: {bytes:?}");
        assert!(!bytes.windows(2).any(|w| w == [0xc2, 0x9b]), "{what}: raw CSI (U+009B) on {stream}: {bytes:?}");
        let text = String::from_utf8_lossy(bytes);
        let control = text.chars().find(|&c| c != '\n' && (c.is_control() || ('\u{80}'..='\u{9f}').contains(&c)));
        assert_eq!(control, None, "{what}: a control character on {stream}:\n{text}");
    }
}

fn pod(name: &str, image: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations: {{note: \"a{ATTACK_YAML}\"}}\nspec:\n  \
         restartPolicy: Never\n  terminationGracePeriodSeconds: 1\n{extra}  containers:\n  - name: c\n    image: \"{image}\"\n    \
         command: [sh, -c, 'printf \"{ATTACK_PRINTF}\" > /dev/termination-log; printf \"said{ATTACK_PRINTF}\\n\"']\n"
    )
}

#[test]
fn validation_errors_escape_file_names_and_the_keys_in_field_paths() {
    let bad = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm}}\ndata: {{\"key{ATTACK_YAML}\": v}}\n---\n{}",
        pod("esc", "busybox:1.28", "")
            .replace("name: c\n", &format!("name: c\n    env: [{{name: \"K{ATTACK_YAML}\", value: x}}]\n"))
    );
    let file = TempFile::new(&format!("bad{RAW}.yaml"), &bad);
    let out = podrun(&["validate", file.path()], None);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    clean("validate", &out);
    let err = stderr(&out);
    let name = format!("bad{ESCAPED}.yaml");
    assert!(err.contains(&name), "no escaped file name {name:?} in:\n{err}");
    let path = format!("data[key{ESCAPED}]");
    assert!(err.contains(&path), "no escaped field path {path:?} in:\n{err}");
    assert!(err.contains("spec.containers[0].env[0].name: Invalid value: \"K\\u{1b}]0;owned"), "{err}");
    // A newline in a file name is escaped too: the error keeps one line a problem.
    let file =
        TempFile::new("two\nlines.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: 1}\n");
    let out = podrun(&["validate", file.path()], None);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    clean("validate", &out);
    assert!(stderr(&out).contains("two\\nlines.yaml"), "{}", stderr(&out));
}

#[test]
fn e2e_a_pods_names_messages_and_engine_errors_are_printed_escaped() {
    require_engine!();
    attack(&Namespace::new("escapes"));
}

#[test]
fn e2e_cri_a_pods_names_messages_and_engine_errors_are_printed_escaped() {
    require_cri!(endpoint);
    attack(&Namespace::on_cri(&endpoint, "escapes"));
}

/// The attack on the engine of `ns`: a pod that runs, one in a dry run, one whose image the
/// engine refuses.
fn attack(ns: &Namespace) {
    // A termination message, an annotation: shown in apply's table and its progress lines.
    let manifest = pod("esc", "busybox:1.28", "");
    let out = apply(ns, &manifest, &["-v"]);
    succeeded(&out);
    clean("apply", &out);
    assert!(stdout(&out).contains(ESCAPED), "no escaped termination message in the table:\n{}", stdout(&out));
    // The same run as JSON: exact (the message as the container wrote it), control characters
    // in JSON's escapes.
    let out = apply(ns, &manifest, &["-o", "json"]);
    succeeded(&out);
    clean("apply -o json", &out);
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("apply -o json is JSON");
    let item = &list["items"][0];
    assert_eq!(item["metadata"]["annotations"]["note"], format!("a{RAW}"));
    assert_eq!(item["status"]["containerStatuses"][0]["state"]["terminated"]["message"], RAW);
    for args in [&["get", "esc", "-o", "wide"][..], &["get", "esc", "-o", "json"], &["get", "esc", "-o", "yaml"]] {
        let out = ns.podrun(&[args, &["-n", ns.name()]].concat());
        succeeded(&out);
        clean(&args.join(" "), &out);
    }
    let got = get_json(ns, "esc");
    assert_eq!(got["status"]["containerStatuses"][0]["state"]["terminated"]["message"], RAW);
    // What the container wrote is relayed as it is, as kubectl relays it.
    let out = ns.podrun(&["logs", "esc", "-n", ns.name()]);
    succeeded(&out);
    assert_eq!(stdout(&out), format!("said{RAW}\n"));
    let out = ns.podrun(&["logs", "esc", "-n", ns.name(), "--prefix"]);
    succeeded(&out);
    assert!(out.stdout.ends_with(format!("said{RAW}\n").as_bytes()), "{:?}", stdout(&out));
    let out = ns.podrun(&["delete", "esc", "-n", ns.name(), "-v"]);
    succeeded(&out);
    clean("delete", &out);

    // A hostPath in the dry run's words, an image the engine refuses in its error.
    let dry =
        pod("dry", "busybox:1.28", &format!("  volumes: [{{name: h, hostPath: {{path: \"/tmp/h{ATTACK_YAML}\"}}}}]\n"));
    let out = apply(ns, &dry, &["--dry-run"]);
    succeeded(&out);
    clean("apply --dry-run", &out);
    assert!(stdout(&out).contains(&format!("hostPath /tmp/h{ESCAPED}")), "{}", stdout(&out));
    let refused = pod("img", &format!("busybox{ATTACK_YAML}"), "");
    // Docker refuses the name at once, in its error; the CRI runtime finds no such image, which
    // the dry run would pull, and the pull fails.
    for (extra, fails) in [(&["--dry-run"][..], false), (&["-v", "--timeout", "15s"], true)] {
        let out = apply(ns, &refused, extra);
        clean(&format!("apply {extra:?} of a refused image"), &out);
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert!(said.contains(&format!("busybox{ESCAPED}")), "{said}");
        assert!(!fails || code(&out) != 0, "{said}");
    }
    let out = ns.podrun(&["delete", "img", "-n", ns.name()]);
    clean("delete", &out);
    assert_eq!(ns.containers(), Vec::<(String, String)>::new(), "{} left containers", ns.name());
}
