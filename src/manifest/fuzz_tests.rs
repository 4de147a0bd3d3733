//! A fuzz test of the manifest loader: the project's own manifests, damaged (bytes, lines
//! shuffled, deep nesting, big numbers, anchors and aliases, merge keys), must load or be
//! refused with an error naming the file and a place, never panic, and finish.
//!
//! A few hundred cases run with the unit tests, the same ones every time; more, drawn at random,
//! on demand: `PODRUN_FUZZ_CASES=100000 cargo test --release --lib fuzz` (a failure prints the
//! seed and mutations; keep it in `the_cases_found_before_stay_fixed`).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRng, TestRunner};

use super::load::{load, LoadOptions, Source};
use super::yaml::nesting;

/// Seeds: the manifests the project ships, and ones of each kind the loader reads.
const SEEDS: &[&str] = &[
    include_str!("../../manifests/web.yaml"),
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  restartPolicy: Never\n  \
     initContainers:\n  - name: init\n    image: busybox:1.28\n    command: ['sh', '-c', 'echo \"[x]\" # not a comment']\n  \
     containers:\n  - name: c\n    image: busybox:1.28\n    args: [--port, \"8080\"]\n    ports: [{containerPort: 80}]\n    \
     env:\n    - {name: A, value: '1'}\n    - name: B\n      valueFrom: {configMapKeyRef: {name: conf, key: a}}\n    \
     resources: {limits: {cpu: 500m, memory: 64Mi}}\n    readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 1}\n    \
     volumeMounts: [{name: v, mountPath: /v}]\n    command:\n    - sh\n    - -c\n    - |\n      echo {a: [b]}\n      exit 0\n  \
     volumes:\n  - name: v\n    configMap: {name: conf, items: [{key: a, path: a, mode: 0644}]}\n",
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf}\ndata: {a: '1'}\nbinaryData: {b: aGk=}\n---\n\
     apiVersion: v1\nkind: Secret\nmetadata: {name: pw}\ntype: Opaque\ndata: {p: aHVudGVyMg==}\nstringData: {u: admin}\n---\n\
     apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n  - &c {name: c, image: busybox}\n  - <<: *c\n    name: d\n",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 2\n  \
     selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      \
     containers: [{name: c, image: nginx}]\n",
    "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n  \
     spec: {containers: [{name: c, image: b}]}\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n",
    "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"j\"}, \
     \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"busybox\"}]}}\n",
];

/// Text that tends to find trouble, inserted at random places.
const SNIPPETS: &[&str] = &[
    "[",
    "{",
    "]",
    "}",
    ": ",
    "- ",
    "? ",
    "'",
    "\"",
    "#",
    "|",
    ">-",
    "\n",
    "\n---\n",
    "...\n",
    "&a ",
    "*a",
    "<<: *a\n",
    "<<: [*a, 5]\n",
    "!!int \"80\"",
    "!!str ",
    "!!binary ",
    "!foo ",
    "\t",
    "\r",
    "\u{feff}",
    "\u{2028}",
    "~",
    "null",
    "99999999999999999999999999",
    "-1e400",
    "0x7fffffffffffffff",
    ".nan",
    "0o777",
    "'': x\n",
    "\"\": x\n",
    "%YAML 1.1\n",
    "\u{0}",
    "\\u",
    "\"\\",
    "aGk",
    "@",
    "`",
];

#[derive(Debug, Clone)]
enum Mutation {
    Byte {
        at: usize,
        byte: u8,
    },
    Insert {
        at: usize,
        snippet: usize,
    },
    Delete {
        at: usize,
        len: usize,
    },
    SwapLines {
        a: usize,
        b: usize,
    },
    /// Flow (`[`, `{`), block (`- `, indented keys) or mixed nesting this deep.
    Nest {
        at: usize,
        depth: usize,
        kind: u8,
    },
    Number {
        at: usize,
        digits: usize,
    },
    /// An anchor on one line, aliases to it on others.
    Alias {
        anchor_line: usize,
        alias_lines: Vec<usize>,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let interesting = prop::sample::select(b"[]{}:-?'\"#|>&*!%@`,\n\r\t 0=\\\x00\x7f".to_vec());
    prop_oneof![
        (any::<usize>(), prop_oneof![interesting, any::<u8>()]).prop_map(|(at, byte)| Mutation::Byte { at, byte }),
        (any::<usize>(), 0..SNIPPETS.len()).prop_map(|(at, snippet)| Mutation::Insert { at, snippet }),
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        (any::<usize>(), prop_oneof![1usize..140, 90usize..110, Just(5000)], 0u8..4)
            .prop_map(|(at, depth, kind)| Mutation::Nest { at, depth, kind }),
        (any::<usize>(), 15usize..400).prop_map(|(at, digits)| Mutation::Number { at, digits }),
        (any::<usize>(), prop::collection::vec(any::<usize>(), 1..12))
            .prop_map(|(anchor_line, alias_lines)| Mutation::Alias { anchor_line, alias_lines }),
    ]
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    let len = text.len().max(1);
    match m {
        Mutation::Byte { at, byte } => {
            if !text.is_empty() {
                text[at % len] = *byte;
            }
        }
        Mutation::Insert { at, snippet } => {
            let at = at % (text.len() + 1);
            text.splice(at..at, SNIPPETS[*snippet].bytes());
        }
        Mutation::Delete { at, len: n } => {
            let at = at % len;
            let end = (at + n).min(text.len());
            text.drain(at.min(end)..end);
        }
        Mutation::SwapLines { a, b } => {
            let mut lines: Vec<Vec<u8>> = text.split(|c| *c == b'\n').map(<[u8]>::to_vec).collect();
            let n = lines.len();
            lines.swap(a % n, b % n);
            *text = lines.join(&b'\n');
        }
        Mutation::Nest { at, depth, kind } => {
            let at = at % (text.len() + 1);
            let nest: Vec<u8> = match kind {
                0 => "[".repeat(*depth).into_bytes(),
                1 => "{a: ".repeat(*depth).into_bytes(),
                2 => "- ".repeat(*depth).into_bytes(),
                // Indentation grows as the square of the depth: keep it to what a file holds.
                _ => (0..*depth.min(&300)).flat_map(|i| format!("\n{}k:", " ".repeat(i)).into_bytes()).collect(),
            };
            text.splice(at..at, nest);
        }
        Mutation::Number { at, digits } => {
            let at = at % (text.len() + 1);
            text.splice(at..at, "9".repeat(*digits).into_bytes());
        }
        Mutation::Alias { anchor_line, alias_lines } => {
            let mut lines: Vec<Vec<u8>> = text.split(|c| *c == b'\n').map(<[u8]>::to_vec).collect();
            let n = lines.len();
            // After the line's first `: ` or `- `, where a value starts.
            let value_at = |l: &[u8]| l.windows(2).position(|w| w == b": " || w == b"- ").map(|p| p + 2);
            if let Some(p) = value_at(&lines[anchor_line % n]) {
                lines[anchor_line % n].splice(p..p, *b"&x ");
            }
            for a in alias_lines {
                let l = &mut lines[a % n];
                if let Some(p) = value_at(l) {
                    l.truncate(p);
                    l.extend_from_slice(b"*x");
                }
            }
            *text = lines.join(&b'\n');
        }
    }
}

/// The deepest a parsed value nests (collections count; scalars do not).
fn depth(v: &serde_yaml::Value) -> usize {
    match v {
        serde_yaml::Value::Sequence(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        serde_yaml::Value::Mapping(m) => 1 + m.iter().map(|(k, v)| depth(k).max(depth(v))).max().unwrap_or(0),
        serde_yaml::Value::Tagged(t) => depth(&t.value),
        _ => 0,
    }
}

fn check(text: &str) -> Result<(), TestCaseError> {
    let source = Source::from_text("fuzz.yaml", text);
    for opts in
        [LoadOptions::default(), LoadOptions { namespace: Some("ns".into()), strict: true, ..LoadOptions::default() }]
    {
        if let Err(e) = load(&source, &opts) {
            let message = e.to_string();
            prop_assert!(message.contains("fuzz.yaml"), "error without the file: {message}");
            prop_assert!(!message.starts_with("fuzz.yaml:0:"), "error without a line: {message}");
        }
    }
    // The pre-scan never counts shallower than serde_yaml nests (aliases aside, which
    // repeat what the text holds). Past the limit the loader refuses the text anyway.
    if !text.contains('*') {
        if let Ok(outline) = nesting::scan(text, nesting::MAX_DEPTH) {
            let parsed: Result<Vec<serde_yaml::Value>, _> =
                serde_yaml::Deserializer::from_str(text).map(serde::Deserialize::deserialize).collect();
            if let Ok(values) = parsed {
                let deepest = values.iter().map(depth).max().unwrap_or(0);
                prop_assert!(outline.max_depth >= deepest, "pre-scan {} < {deepest}", outline.max_depth);
            }
        }
    }
    Ok(())
}

#[test]
fn fuzz_the_loader_with_damaged_manifests() {
    // The test command's run is the same every time (a failure there is a change's, never
    // luck's); asked for more cases, the fuzzer draws them at random.
    let asked: Option<u32> = std::env::var("PODRUN_FUZZ_CASES").ok().and_then(|c| c.parse().ok());
    let config = Config { cases: asked.unwrap_or(300), failure_persistence: None, ..Config::default() };
    let mut runner = match asked {
        Some(_) => TestRunner::new(config),
        None => TestRunner::new_with_rng(config.clone(), TestRng::deterministic_rng(config.rng_algorithm)),
    };
    let strategy = (0..SEEDS.len(), prop::collection::vec(mutation(), 1..6));
    runner
        .run(&strategy, |(seed, mutations)| {
            let mut text = SEEDS[seed].as_bytes().to_vec();
            for m in &mutations {
                apply(&mut text, m);
            }
            check(&String::from_utf8_lossy(&text))
        })
        .unwrap();
}

#[test]
fn the_seeds_load() {
    for seed in SEEDS {
        load(&Source::from_text("seed.yaml", seed), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Cases the fuzzer found, kept: a flow collection made a key by a `:` after it, a byte order
/// mark starting a line, a `:` inside a plain scalar in a flow collection, a `?` starting one.
#[test]
fn the_cases_found_before_stay_fixed() {
    let found: [(usize, Vec<Mutation>); 8] = [
        (0, vec![Mutation::Byte { at: 4_884_366_974_990_373_124, byte: b'?' }]),
        (5, vec![Mutation::Insert { at: 11_868_338_746_842_211_123, snippet: 4 }]),
        (5, vec![Mutation::Insert { at: 6_805_270_058_848_853_373, snippet: 4 }]),
        (0, vec![Mutation::Insert { at: 11_883_796_869_082_651_461, snippet: 25 }]),
        (
            4,
            vec![
                Mutation::Insert { at: 15_546_975_202_163_449_135, snippet: 20 },
                Mutation::Byte { at: 10_361_806_981_026_674_630, byte: b'\'' },
            ],
        ),
        (5, vec![Mutation::Byte { at: 458_403_399_332_450_859, byte: b':' }]),
        (
            3,
            vec![
                Mutation::Number { at: 847_375_766_636_358_448, digits: 94 },
                Mutation::Insert { at: 13_431_843_028_437_957_705, snippet: 25 },
            ],
        ),
        (
            3,
            vec![
                Mutation::Insert { at: 4_863_317_656_809_760_717, snippet: 4 },
                Mutation::Number { at: 545_898_852_522_179_492, digits: 25 },
                Mutation::Number { at: 27_356_159_619_831_581, digits: 15 },
            ],
        ),
    ];
    for (seed, mutations) in found {
        let mut text = SEEDS[seed].as_bytes().to_vec();
        for m in &mutations {
            apply(&mut text, m);
        }
        let text = String::from_utf8_lossy(&text);
        check(&text).unwrap_or_else(|e| panic!("{e}\n{text:?}"));
    }
}
