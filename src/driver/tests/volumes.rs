//! Volumes on an engine that is not local (engine volumes filled through the infra container), and termination messages read back through it.

use super::*;

const LIVE_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: live, labels: {tier: one}}\nspec:\n  containers:\n  - name: a\n    image: 'img:1'\n    volumeMounts:\n    - {name: conf, mountPath: /etc/conf}\n    - {name: creds, mountPath: /etc/creds}\n    - {name: info, mountPath: /etc/info}\n    - {name: mem, mountPath: /mem}\n    - {name: scratch, mountPath: /scratch}\n  volumes:\n  - {name: conf, configMap: {name: conf}}\n  - {name: creds, secret: {secretName: creds}}\n  - {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}\n  - {name: mem, emptyDir: {medium: Memory}}\n  - {name: scratch, emptyDir: {}}\n";

fn live(greeting: &str, tier: &str) -> DesiredPod {
    let yaml = format!(
        "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: conf}}\ndata: {{greeting: {greeting}}}\n---\napiVersion: v1\nkind: Secret\nmetadata: {{name: creds}}\nstringData: {{token: s3cret}}\n",
        LIVE_POD.replace("tier: one", &format!("tier: {tier}"))
    );
    let loaded = load(&Source::from_text("t.yaml", &yaml), &LoadOptions::default()).unwrap();
    let mut d = DesiredPod::from_loaded(&loaded.pods[0], INFRA, None);
    d.configs = Arc::new(loaded.configs.clone());
    d
}

fn infra_id(rt: &FakeRuntime) -> String {
    rt.containers().into_iter().find(|c| c.name.contains("_POD_")).unwrap().id
}

/// The current data directory of a volume the fake holds, and one file's entry in it.
fn data_file(rt: &FakeRuntime, volume: &str, file: &str) -> (String, crate::runtime::fake::FakeEntry) {
    use crate::runtime::fake::FakeEntry;
    let infra = infra_id(rt);
    let root = format!("/.podrun/volumes/{volume}");
    let Some(FakeEntry::Link { target }) = rt.file(&infra, &format!("{root}/..data")) else { panic!("no ..data link") };
    assert_eq!(
        rt.file(&infra, &format!("{root}/{file}")),
        Some(FakeEntry::Link { target: format!("..data/{file}") }),
        "{file} links into ..data"
    );
    (target.clone(), rt.file(&infra, &format!("{root}/{target}/{file}")).unwrap())
}

#[tokio::test(start_paused = true)]
async fn volumes_on_an_engine_that_is_not_local_are_engine_volumes_filled_through_the_infra_container() {
    use crate::runtime::fake::FakeEntry;
    let rt = Arc::new(fake());
    let d = live("hello", "one");
    let uid = d.uid.clone();
    let r = run(&rt, d, opts(10)).await;
    assert_eq!(r.outcome, Ok(()));
    let names: Vec<String> = rt.volumes().into_keys().collect();
    let v = |n: &str| format!("podrun-{uid}-{n}");
    let mut want = vec![v("conf"), v("creds"), v("info"), v("mem"), v("scratch"), format!("podrun-{uid}_termination")];
    want.sort();
    assert_eq!(names, want);
    // Secrets and Memory emptyDirs never reach the engine's disk.
    assert_eq!(rt.tmpfs_volumes(), [v("creds"), v("mem")].into_iter().collect());
    assert_eq!(rt.volumes()[&v("conf")][crate::runtime::labels::POD_UID], uid);
    // The kubelet's layout: ..data to a timestamped directory, a link per key.
    let (dir, greeting) = data_file(&rt, "conf", "greeting");
    assert!(dir.starts_with("..") && dir.len() > 30, "{dir}");
    assert_eq!(greeting, FakeEntry::File { mode: 0o644, gid: 0, content: b"hello".to_vec() });
    let (_, token) = data_file(&rt, "creds", "token");
    assert_eq!(token, FakeEntry::File { mode: 0o644, gid: 0, content: b"s3cret".to_vec() });
    let (_, labels) = data_file(&rt, "info", "labels");
    assert!(
        matches!(&labels, FakeEntry::File { content, .. } if String::from_utf8_lossy(content).contains("tier=\"one\"")),
        "{labels:?}"
    );
    // An emptyDir's root: writable by all.
    assert_eq!(rt.file(&infra_id(&rt), "/.podrun/volumes/scratch"), Some(FakeEntry::Dir { mode: 0o777, gid: 0 }));

    // A re-apply with the same content writes nothing.
    tokio::time::advance(Duration::from_secs(5)).await;
    let n = rt.calls().len();
    assert_eq!(run(&rt, live("hello", "one"), opts(10)).await.outcome, Ok(()));
    assert!(!rt.calls()[n..].iter().any(|c| matches!(c, Call::PutArchive { .. })), "{:?}", &rt.calls()[n..]);

    // Changed ConfigMap content and labels: new files, swapped in, no container made again.
    tokio::time::advance(Duration::from_secs(5)).await;
    let n = rt.calls().len();
    assert_eq!(run(&rt, live("changed", "two"), opts(10)).await.outcome, Ok(()));
    let calls = rt.calls()[n..].to_vec();
    assert!(!calls.iter().any(|c| matches!(c, Call::Create { .. } | Call::Remove { .. })), "{calls:?}");
    let (new_dir, greeting) = data_file(&rt, "conf", "greeting");
    assert_ne!(new_dir, dir);
    assert!(matches!(greeting, FakeEntry::File { content, .. } if content == b"changed"));
    let (_, labels) = data_file(&rt, "info", "labels");
    assert!(
        matches!(&labels, FakeEntry::File { content, .. } if String::from_utf8_lossy(content).contains("tier=\"two\"")),
        "{labels:?}"
    );

    // The pod's own volumes go with it.
    remove_pod(&*rt, &Selector::pod("default", "live"), None, None, None).await.unwrap();
    assert!(rt.volumes().is_empty(), "{:?}", rt.volumes());
}

#[tokio::test(start_paused = true)]
async fn a_termination_message_is_read_back_through_the_engine() {
    let rt = fake();
    assert_eq!(read_engine_message(&rt, "c1", "/dev/termination-log").await, None);
    // The last 4096 bytes, as the kubelet reads the file.
    rt.write_file("c1", "/dev/termination-log", format!("{}{}", "x".repeat(5000), "y".repeat(4000)).as_bytes());
    let want = format!("{}{}", "x".repeat(96), "y".repeat(4000));
    assert_eq!(read_engine_message(&rt, "c1", "/dev/termination-log").await, Some(want));
}
