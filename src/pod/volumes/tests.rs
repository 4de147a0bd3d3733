//! Tests of volume planning (pure) and preparing (on a scratch state root of the test's own,
//! and a matching scratch directory on /dev/shm, both removed afterwards).

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use super::host::fs_type;
use super::*;
use crate::manifest::types::{ConfigMap, ObjectMeta, Secret};
use crate::manifest::{load, LoadOptions, Source};

/// A PodFiles root of the test's own; removes it, and its /dev/shm twin, when dropped.
struct Scratch {
    root: PathBuf,
    files: PodFiles,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("podrun-volumes-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        let files = PodFiles::new(root.join("state"));
        Scratch { root, files }
    }

    /// A host path of the test's own, for hostPath volumes.
    fn path(&self, rel: &str) -> PathBuf {
        self.root.join("host").join(rel)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Sub-path mount points first, also after a failed test: never removed recursively.
        for (uid, _) in self.files.pod_dirs() {
            remove_pod_volumes(&self.files, &uid);
        }
        let _ = fs::remove_dir_all(self.files.shm_base());
        let _ = fs::remove_dir_all(&self.root);
    }
}

const HEAD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {app: web, tier: front}\n";

/// A pod with `spec` (YAML, indented by two spaces under `spec:`).
fn pod(spec: &str) -> Pod {
    let text = format!("{HEAD}spec:\n{spec}");
    unchecked(&text)
}

/// Parsed and defaulted but not validated: the planner checks the volumes by validation's
/// rules (`check_volumes`) and stands behind them with its own defences (what only it sees).
fn unchecked(text: &str) -> Pod {
    let mut p: Pod = serde_yaml::from_str(text).unwrap();
    crate::manifest::defaults::apply_before_validation(&mut p);
    crate::manifest::defaults::apply(&mut p, "default");
    p
}

fn facts() -> PodFacts {
    PodFacts { node_name: "host".into(), host_cpus: 2, host_memory: 1 << 30, ..Default::default() }
}

fn configs() -> ConfigStore {
    let mut store = ConfigStore::new();
    let cm = ConfigMap {
        metadata: ObjectMeta { name: "cfg".into(), ..Default::default() },
        data: [("a".to_owned(), "one".to_owned()), ("b".to_owned(), "two".to_owned())].into(),
        ..Default::default()
    };
    store.add_config_map("default", &cm).unwrap();
    let s = Secret {
        metadata: ObjectMeta { name: "sec".into(), ..Default::default() },
        string_data: [("password".to_owned(), "hunter2".to_owned())].into(),
        ..Default::default()
    };
    store.add_secret("default", &s).unwrap();
    store
}

fn plan(s: &Scratch, spec: &str) -> Result<VolumeSetup, VolumeError> {
    plan_volumes(&pod(spec), &s.files, &configs(), &facts())
}

fn plan_err(spec: &str) -> String {
    let s = Scratch::new("err");
    plan(&s, spec).unwrap_err().to_string()
}

/// The mode of what `p` names, through the links of a Files volume (`key -> ..data/key`).
fn mode_of(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn dir_of(setup: &VolumeSetup, name: &str) -> PathBuf {
    match &setup.volumes().iter().find(|v| v.name == name).unwrap().source {
        PlannedSource::EmptyDir { dir, .. } | PlannedSource::Files { dir, .. } => dir.clone(),
        PlannedSource::HostPath { path, .. } => path.clone(),
        PlannedSource::Claim { .. } | PlannedSource::Image { .. } => panic!("{name} has no directory"),
    }
}

/// Whether `a` and `b` are the same file (a mount point shows what is mounted there).
fn same_file(a: &Path, b: &Path) -> bool {
    let (a, b) = (fs::metadata(a).unwrap(), fs::metadata(b).unwrap());
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

fn pod_uid(setup: &VolumeSetup) -> String {
    setup.uid.clone()
}

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap()
}

/// One container `c` mounting what `mounts` says (YAML flow list entries).
fn with_mounts(volumes: &str, mounts: &str) -> String {
    format!(
        "  volumes: [{volumes}]\n  containers:\n  - name: c\n    image: busybox:1.28\n    volumeMounts: [{mounts}]\n"
    )
}

#[test]
fn empty_dir_on_disk_shared_and_kept_across_prepares() {
    let s = Scratch::new("emptydir");
    let spec = "  volumes: [{name: scratch, emptyDir: {}}, {name: bare}]\n  initContainers:\n  - {name: i, image: x:1, \
                volumeMounts: [{name: scratch, mountPath: /s}]}\n  containers:\n  - {name: c, image: x:1, volumeMounts: \
                [{name: scratch, mountPath: /data, readOnly: true}, {name: bare, mountPath: /b}]}\n";
    let setup = plan(&s, spec).unwrap();
    let uid = pod(spec).metadata.uid.unwrap();
    let dir = dir_of(&setup, "scratch");
    assert_eq!(dir, s.files.pod_dir(&uid).join("volumes/scratch"));
    // A volume without a source is an emptyDir, as the API server defaults it.
    assert!(matches!(setup.volumes()[1].source, PlannedSource::EmptyDir { memory: false, .. }));
    prepare(&setup).unwrap();
    assert_eq!(mode_of(&dir), 0o777);
    assert_eq!(mode_of(&s.files.pod_dir(&uid)), 0o700);
    fs::write(dir.join("kept"), "x").unwrap();
    prepare(&setup).unwrap();
    assert_eq!(read(&dir.join("kept")), "x", "a re-apply keeps an emptyDir's content");
    let src = dir.to_string_lossy().into_owned();
    assert_eq!(setup.mounts_for("i", &[]).unwrap(), vec![Mount::bind(src.clone(), "/s", false)]);
    assert_eq!(setup.mounts_for("c", &[]).unwrap()[0], Mount::bind(src, "/data", true));
    assert_eq!(setup.mounts_for("nobody", &[]).unwrap(), vec![]);
    remove_pod_volumes(&s.files, &uid);
    assert!(!dir.exists());
}

/// Whether `dir` is the root of a mount (on another device than its parent).
fn is_mount_point(dir: &Path) -> bool {
    fs::symlink_metadata(dir).unwrap().dev() != fs::metadata(dir.parent().unwrap()).unwrap().dev()
}

#[test]
fn memory_empty_dir_is_a_tmpfs_of_its_size_on_dev_shm() {
    let s = Scratch::new("memory");
    let spec = with_mounts(
        "{name: m, emptyDir: {medium: Memory, sizeLimit: 64Mi}}",
        "{name: m, mountPath: /m}, {name: m, mountPath: /again, subPath: sub}",
    );
    let setup = plan(&s, &spec).unwrap();
    let uid = pod(&spec).metadata.uid.unwrap();
    let dir = dir_of(&setup, "m");
    assert!(dir.starts_with("/dev/shm"), "{dir:?}");
    assert!(dir.ends_with(format!("{uid}/m")), "{dir:?}");
    let root = rustix::process::geteuid().is_root();
    prepare(&setup).unwrap();
    if root {
        assert!(setup.warnings().is_empty(), "{:?}", setup.warnings());
        assert!(is_mount_point(&dir), "a tmpfs of its own");
        let st = rustix::fs::statvfs(&dir).unwrap();
        assert_eq!(st.f_blocks * st.f_frsize, 64 << 20, "sized by sizeLimit");
        fs::write(dir.join("kept"), "x").unwrap();
        prepare(&setup).unwrap();
        assert_eq!(read(&dir.join("kept")), "x", "a re-apply keeps the mount and its content");
    } else {
        assert_eq!(setup.warnings().len(), 1);
        assert!(setup.warnings()[0].starts_with("spec.volumes[0].emptyDir.sizeLimit: not enforced"));
    }
    assert_eq!(mode_of(&dir), 0o1777, "as the root of the kubelet's tmpfs");
    assert_eq!(mode_of(dir.parent().unwrap()), 0o700, "the pod's directory on /dev/shm is private");
    assert_eq!(mode_of(dir.parent().unwrap().parent().unwrap()), 0o700);
    let mounts = setup.mounts_for("c", &[]).unwrap();
    // The engine gets podrun's mount point of the sub-path, never a path into the volume.
    let point = s.files.pod_dir(&uid).join("volume-subpaths/m/c/1");
    assert_eq!(mounts[1], Mount::bind(point.to_string_lossy(), "/again", false));
    assert!(dir.join("sub").is_dir(), "a missing sub-path is created");
    assert_eq!(mode_of(&dir.join("sub")), mode_of(&dir), "with the mode of the volume's root");
    assert!(same_file(&point, &dir.join("sub")), "the mount point shows the sub-path");
    remove_pod_volumes(&s.files, &uid);
    assert!(!dir.exists());
    assert!(!point.exists());
    assert!(!dir.parent().unwrap().exists());
    let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap();
    assert!(!mounts.contains(&*dir.to_string_lossy()), "the tmpfs is unmounted");
}

#[test]
fn a_memory_empty_dir_is_sized_as_the_kubelet_sizes_it() {
    let s = Scratch::new("memory-sizes");
    let size = |limits: [&str; 2], size_limit: &str| {
        let spec = format!(
            "  volumes: [{{name: m, emptyDir: {{medium: Memory{size_limit}}}}}]\n  initContainers:\n  - {{name: i, \
             image: x:1{}}}\n  containers:\n  - {{name: c, image: x:1{}, volumeMounts: [{{name: m, mountPath: /m}}]}}\n",
            limits[0], limits[1]
        );
        match &plan(&s, &spec).unwrap().volumes()[0].source {
            PlannedSource::EmptyDir { tmpfs_size, .. } => *tmpfs_size,
            other => panic!("{other:?}"),
        }
    };
    let mem = |q: &str| format!(", resources: {{limits: {{memory: {q}}}}}");
    let (m, l) = (mem("32Mi"), mem("48Mi"));
    // No limit anywhere: the node's allocatable memory (1 GiB in `facts`).
    assert_eq!(size(["", ""], ""), Some(1 << 30));
    assert_eq!(size(["", ""], ", sizeLimit: 16Mi"), Some(16 << 20));
    // A sizeLimit or a pod limit above the node's memory: the node's.
    assert_eq!(size(["", ""], ", sizeLimit: 100Gi"), Some(1 << 30));
    assert_eq!(size([&mem("2Gi"), &mem("3Gi")], ", sizeLimit: 100Gi"), Some(1 << 30));
    // Every container limited: the pod's limit, the larger of the init container's and the
    // app containers' sum, unless sizeLimit is smaller.
    assert_eq!(size([&m, &l], ""), Some(48 << 20));
    assert_eq!(size([&l, &m], ", sizeLimit: 64Mi"), Some(48 << 20));
    assert_eq!(size([&l, &m], ", sizeLimit: 16Mi"), Some(16 << 20));
    // One container without a limit: the pod has none.
    assert_eq!(size(["", &m], ""), Some(1 << 30));
    assert_eq!(size(["", &m], ", sizeLimit: 64Mi"), Some(64 << 20));
}

#[test]
fn a_memory_empty_dir_is_the_least_of_what_is_known() {
    let (gib, mib) = (1u64 << 30, 1u64 << 20);
    assert_eq!(memory_size(Some(100 * gib), None, Some(24 * gib)), Some(24 * gib));
    assert_eq!(memory_size(Some(100 * gib), Some(48 * mib), Some(24 * gib)), Some(48 * mib));
    assert_eq!(memory_size(Some(16 * mib), Some(48 * mib), Some(24 * gib)), Some(16 * mib));
    assert_eq!(memory_size(None, Some(48 * gib), Some(24 * gib)), Some(24 * gib));
    // The node's memory unknown (0 from /proc/meminfo is None): the limits alone.
    assert_eq!(memory_size(Some(100 * gib), Some(48 * mib), None), Some(48 * mib));
    assert_eq!(memory_size(None, None, None), None);
}

#[test]
fn a_source_podrun_lacks_never_becomes_an_empty_dir() {
    let c = "  containers: [{name: c, image: b, volumeMounts: [{name: v, mountPath: /v}]}]\n";
    let spec = &format!("{c}  volumes: [{{name: v, nfs: {{server: nas, path: /x}}}}]\n");
    assert_eq!(plan_err(spec), "spec.volumes[0].nfs: not supported by podrun");
    let spec = &format!("{c}  volumes: [{{name: v, nfs: null}}]\n");
    let s = Scratch::new("null-source");
    assert!(matches!(plan(&s, spec).unwrap().volumes()[0].source, PlannedSource::EmptyDir { .. }));
}

#[test]
fn empty_dir_medium_and_size_are_checked() {
    let e = plan_err(&with_mounts("{name: m, emptyDir: {medium: Disk}}", "{name: m, mountPath: /mnt}"));
    assert!(e.starts_with("spec.volumes[0].emptyDir.medium: Unsupported value: \"Disk\""), "{e}");
    let e = plan_err(&with_mounts("{name: m, emptyDir: {medium: HugePages-2Mi}}", "{name: m, mountPath: /mnt}"));
    assert!(e.contains("not supported by podrun"), "{e}");
    let s = Scratch::new("disk-size");
    let setup = plan(&s, &with_mounts("{name: m, emptyDir: {sizeLimit: 1Gi}}", "{name: m, mountPath: /mnt}")).unwrap();
    assert!(setup.warnings()[0].contains("evict"), "{:?}", setup.warnings());
    assert_eq!(setup.on_engine().warnings().len(), 1, "no engine evicts either");
}

#[test]
fn a_memory_empty_dir_on_the_engine_is_a_tmpfs_of_its_size_limit() {
    let s = Scratch::new("memory-size");
    let spec = with_mounts(
        "{name: m, emptyDir: {medium: Memory, sizeLimit: 64Mi}}, {name: n, emptyDir: {medium: Memory}}, \
         {name: z, emptyDir: {medium: Memory, sizeLimit: '0'}}, {name: d, emptyDir: {sizeLimit: 1Gi}}",
        "{name: m, mountPath: /m}, {name: n, mountPath: /n}, {name: z, mountPath: /z}, {name: d, mountPath: /d}",
    );
    let setup = plan(&s, &spec).unwrap().on_engine();
    let tmpfs: BTreeMap<String, Option<u64>> = setup
        .engine_volumes("default", "p")
        .into_iter()
        .filter_map(|v| Some((v.name.rsplit('-').next()?.to_owned(), v.tmpfs?.size)))
        .collect();
    // The kubelet uses a sizeLimit above zero; without one the node's memory (1 GiB in `facts`).
    let node = Some(1 << 30);
    assert_eq!(tmpfs, BTreeMap::from([("m".into(), Some(64 << 20)), ("n".into(), node), ("z".into(), node)]));
    assert_eq!(setup.warnings().len(), 1, "only the disk-backed limit is not kept: {:?}", setup.warnings());
    assert!(setup.warnings()[0].starts_with("spec.volumes[3].emptyDir.sizeLimit: not enforced"));
}

#[test]
fn host_path_types_are_checked_like_the_kubelet() {
    let s = Scratch::new("hostpath");
    let check = |path: &Path, t: &str| -> Result<(), String> {
        let spec = with_mounts(
            &format!("{{name: h, hostPath: {{path: {:?}, type: {t:?}}}}}", path),
            "{name: h, mountPath: /mnt}",
        );
        prepare(&plan(&s, &spec).map_err(|e| e.to_string())?).map_err(|e| crate::error_chain::chain(&e))
    };
    let d = s.path("made/deep");
    check(&d, "DirectoryOrCreate").unwrap();
    assert_eq!(mode_of(&d), 0o755);
    check(&d, "Directory").unwrap();
    check(&d, "DirectoryOrCreate").unwrap();
    let e = check(&s.path("absent"), "Directory").unwrap_err();
    assert_eq!(
        e,
        format!(
            "spec.volumes[0].hostPath.path: hostPath type check failed: {} is not a directory",
            s.path("absent").display()
        )
    );
    let f = d.join("f");
    check(&f, "FileOrCreate").unwrap();
    assert_eq!(mode_of(&f), 0o644);
    assert_eq!(fs::metadata(&f).unwrap().len(), 0);
    check(&f, "File").unwrap();
    assert!(check(&f, "Directory").unwrap_err().ends_with("is not a directory"));
    assert!(check(&d, "File").unwrap_err().ends_with(&format!("{} is not a file", d.display())));
    let e = check(&s.path("no-parent/f"), "FileOrCreate").unwrap_err();
    assert!(e.contains("cannot create file"), "the parent must exist: {e}");
    assert!(check(&f, "Socket").unwrap_err().ends_with("is not a socket file"));
    let sock = d.join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    check(&sock, "Socket").unwrap();
    check(Path::new("/dev/null"), "CharDevice").unwrap();
    assert!(check(&f, "CharDevice").unwrap_err().ends_with("is not a character device"));
    assert!(check(Path::new("/dev/null"), "BlockDevice").unwrap_err().ends_with("is not a block device"));
    // No type: no check, and a missing path becomes a directory, as container runtimes make it.
    check(&s.path("untyped"), "").unwrap();
    assert!(s.path("untyped").is_dir());
    check(&f, "").unwrap();
    let e = check(&d, "Dir").unwrap_err();
    assert!(e.starts_with("spec.volumes[0].hostPath.type: Unsupported value: \"Dir\": supported values: \"\""), "{e}");
    let e = plan_err(&with_mounts("{name: h, hostPath: {path: rel/x}}", "{name: h, mountPath: /mnt}"));
    assert!(
        e.starts_with("spec.volumes[0].hostPath.path: Invalid value: \"rel/x\": podrun needs an absolute path"),
        "{e}"
    );
    assert!(plan_err(&with_mounts("{name: h, hostPath: {path: /a/../etc}}", "{name: h, mountPath: /mnt}"))
        .ends_with("must not contain '..'"));
}

#[test]
fn config_map_all_keys_or_items_with_modes_and_nested_paths() {
    let s = Scratch::new("configmap");
    let spec = with_mounts(
        "{name: all, configMap: {name: cfg}}, {name: some, configMap: {name: cfg, defaultMode: 0600, items: [{key: a, \
         path: x/y/a.conf}, {key: b, path: b, mode: 0640}]}}",
        "{name: all, mountPath: /all}, {name: some, mountPath: /some}",
    );
    let setup = plan(&s, &spec).unwrap();
    prepare(&setup).unwrap();
    let all = dir_of(&setup, "all");
    assert!(all.starts_with(s.files.pod_dir(&pod(&spec).metadata.uid.unwrap())));
    assert_eq!(read(&all.join("a")), "one");
    assert_eq!(read(&all.join("b")), "two");
    assert_eq!(mode_of(&all.join("a")), 0o644, "the API's default mode");
    assert_eq!(mode_of(&all), 0o755);
    let some = dir_of(&setup, "some");
    assert_eq!(read(&some.join("x/y/a.conf")), "one");
    assert_eq!(mode_of(&some.join("x/y/a.conf")), 0o600, "defaultMode");
    assert_eq!(mode_of(&some.join("b")), 0o640, "an item's own mode wins");
    assert_eq!(mode_of(&some.join("x/y")), 0o755);
    assert!(!some.join("a").exists(), "only the items");
    // Always mounted read-only, as the kubelet mounts them.
    assert!(setup.mounts_for("c", &[]).unwrap().iter().all(|m| matches!(m, Mount::Bind { read_only: true, .. })));
    // Modes are checked.
    let e =
        plan_err(&with_mounts("{name: v, configMap: {name: cfg, defaultMode: 01777}}", "{name: v, mountPath: /mnt}"));
    assert_eq!(
        e,
        "spec.volumes[0].configMap.defaultMode: Invalid value: 1023: must be a number between 0 and 0777 (octal), both \
         inclusive"
    );
}

#[test]
fn missing_objects_and_keys_fail_unless_optional() {
    let e = plan_err(&with_mounts("{name: v, configMap: {name: nope}}", "{name: v, mountPath: /mnt}"));
    assert_eq!(e, format!("spec.volumes[0].configMap.name: ConfigMap default/nope not found ({SUPPLY})"));
    let e = plan_err(&with_mounts("{name: v, secret: {secretName: nope}}", "{name: v, mountPath: /mnt}"));
    assert!(e.starts_with("spec.volumes[0].secret.secretName: Secret default/nope not found"), "{e}");
    let e = plan_err(&with_mounts(
        "{name: v, configMap: {name: cfg, items: [{key: zz, path: z}]}}",
        "{name: v, mountPath: /mnt}",
    ));
    assert_eq!(
        e,
        format!("spec.volumes[0].configMap.items[0].key: ConfigMap default/cfg has no key \"zz\" ({SUPPLY})")
    );
    let s = Scratch::new("optional");
    let spec = with_mounts(
        "{name: gone, configMap: {name: nope, optional: true}}, {name: part, configMap: {name: cfg, optional: true, \
         items: [{key: zz, path: z}, {key: a, path: a}]}}",
        "{name: gone, mountPath: /g}, {name: part, mountPath: /p}",
    );
    let setup = plan(&s, &spec).unwrap();
    prepare(&setup).unwrap();
    let gone = dir_of(&setup, "gone");
    let visible = |d: &Path| -> Vec<String> {
        let names = fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
        names.filter(|n| !n.starts_with("..")).collect()
    };
    assert!(gone.is_dir() && visible(&gone).is_empty(), "an optional missing object: an empty volume");
    let part = dir_of(&setup, "part");
    assert!(part.join("a").is_file() && !part.join("z").exists());
}

#[test]
fn secrets_live_on_dev_shm_and_never_show_in_debug() {
    let s = Scratch::new("secret");
    let spec = with_mounts(
        "{name: s, secret: {secretName: sec, items: [{key: password, path: pw, mode: 0400}]}}",
        "{name: s, mountPath: /s, readOnly: false}",
    );
    let setup = plan(&s, &spec).unwrap();
    assert!(!format!("{setup:?}").contains("hunter2"), "Debug must not show secret values");
    prepare(&setup).unwrap();
    let dir = dir_of(&setup, "s");
    assert!(dir.starts_with("/dev/shm"), "secrets stay off the disk: {dir:?}");
    assert_eq!(read(&dir.join("pw")), "hunter2");
    assert_eq!(mode_of(&dir.join("pw")), 0o400);
    // Host users are kept out by the private pod directory; the volume's own directory stays
    // usable for a non-root container user.
    assert_eq!(mode_of(dir.parent().unwrap()), 0o700);
    assert_eq!(mode_of(&dir), 0o755);
    assert!(matches!(&setup.mounts_for("c", &[]).unwrap()[0], Mount::Bind { read_only: true, .. }));
    remove_pod_volumes(&s.files, &pod(&spec).metadata.uid.unwrap());
    assert!(!dir.exists());
}

#[test]
fn fs_group_owns_what_podrun_creates() {
    let s = Scratch::new("fsgroup");
    let spec = format!(
        "  securityContext: {{fsGroup: 2345}}\n{}",
        with_mounts(
            "{name: e, emptyDir: {}}, {name: s, secret: {secretName: sec, defaultMode: 0400}}, {name: c, configMap: \
             {name: cfg, items: [{key: a, path: d/a}]}}, {name: h, hostPath: {path: HOST, type: DirectoryOrCreate}}",
            "{name: e, mountPath: /e}, {name: s, mountPath: /s}, {name: c, mountPath: /c}, {name: h, mountPath: /h}",
        )
        .replace("HOST", s.path("h").to_str().unwrap())
    );
    let setup = plan(&s, &spec).unwrap();
    prepare(&setup).unwrap();
    let gid = |p: &Path| fs::metadata(p).unwrap().gid();
    let e = dir_of(&setup, "e");
    assert_eq!((gid(&e), mode_of(&e)), (2345, 0o2777), "emptyDir: group rw and setgid");
    let sec = dir_of(&setup, "s");
    assert_eq!((gid(&sec), mode_of(&sec)), (2345, 0o2750), "a secret's directory is closed to others");
    assert_eq!((gid(&sec.join("password")), mode_of(&sec.join("password"))), (2345, 0o440), "group read is added");
    let c = dir_of(&setup, "c");
    assert_eq!((gid(&c.join("d")), mode_of(&c.join("d"))), (2345, 0o2755));
    assert_eq!((gid(&c.join("d/a")), mode_of(&c.join("d/a"))), (2345, 0o644));
    assert_ne!(gid(&s.path("h")), 2345, "a hostPath is the host's: fsGroup does not apply");
    let e = plan_err("  securityContext: {fsGroup: -1}\n  containers: [{name: c, image: x:1}]\n");
    assert!(e.starts_with("spec.securityContext.fsGroup: Invalid value: -1"), "{e}");
}

#[test]
fn downward_api_files() {
    let s = Scratch::new("downward");
    let spec = "  volumes:\n  - name: info\n    downwardAPI:\n      items:\n      - {path: labels, fieldRef: {fieldPath: \
                metadata.labels}}\n      - {path: name, fieldRef: {fieldPath: metadata.name}, mode: 0600}\n      - {path: \
                tier, fieldRef: {fieldPath: \"metadata.labels['tier']\"}}\n      - {path: mem, resourceFieldRef: \
                {containerName: c, resource: limits.memory, divisor: 1Mi}}\n  containers:\n  - name: c\n    image: x:1\n    \
                resources: {limits: {memory: 64Mi}}\n    volumeMounts: [{name: info, mountPath: /info}]\n";
    let setup = plan(&s, spec).unwrap();
    prepare(&setup).unwrap();
    let d = dir_of(&setup, "info");
    assert_eq!(read(&d.join("labels")), "app=\"web\"\ntier=\"front\"\n");
    assert_eq!(read(&d.join("name")), "p");
    assert_eq!(mode_of(&d.join("name")), 0o600);
    assert_eq!(read(&d.join("tier")), "front");
    assert_eq!(read(&d.join("mem")), "64");
    let e = plan_err(&with_mounts(
        "{name: i, downwardAPI: {items: [{path: ip, fieldRef: {fieldPath: status.podIP}}]}}",
        "",
    ));
    assert!(
        e.starts_with("spec.volumes[0].downwardAPI.items[0].fieldRef.fieldPath: Unsupported value: \"status.podIP\"")
    );
    let e = plan_err(&with_mounts(
        "{name: i, downwardAPI: {items: [{path: m, resourceFieldRef: {resource: limits.cpu}}]}}",
        "",
    ));
    assert_eq!(e, "spec.volumes[0].downwardAPI.items[0].resourceFieldRef.containerName: Required value");
    let e = plan_err(&with_mounts("{name: i, downwardAPI: {items: [{path: m}]}}", "{name: i, mountPath: /mnt}"));
    assert!(e.starts_with("spec.volumes[0].downwardAPI.items[0]: Required value"), "{e}");
}

#[test]
fn projected_merges_sources_and_refuses_conflicts() {
    let s = Scratch::new("projected");
    let spec = with_mounts(
        "{name: all, projected: {defaultMode: 0440, sources: [{configMap: {name: cfg, items: [{key: a, path: conf/a}]}}, \
         {secret: {name: sec}}, {downwardAPI: {items: [{path: conf/name, fieldRef: {fieldPath: metadata.name}}]}}]}}",
        "{name: all, mountPath: /all}",
    );
    let setup = plan(&s, &spec).unwrap();
    prepare(&setup).unwrap();
    let d = dir_of(&setup, "all");
    assert!(d.starts_with("/dev/shm"), "it holds a secret");
    assert_eq!(read(&d.join("conf/a")), "one");
    assert_eq!(read(&d.join("password")), "hunter2");
    assert_eq!(read(&d.join("conf/name")), "p");
    assert_eq!(mode_of(&d.join("password")), 0o440);
    let e = plan_err(&with_mounts(
        "{name: v, projected: {sources: [{configMap: {name: cfg}}, {secret: {name: sec, items: [{key: password, path: \
         a}]}}]}}",
        "{name: v, mountPath: /v}",
    ));
    assert_eq!(
        e,
        "spec.volumes[0].projected.sources[1].secret.items[0].path: Invalid value: \"a\": conflicting duplicate paths"
    );
    let e = plan_err(&with_mounts(
        "{name: v, projected: {sources: [{configMap: {name: cfg, items: [{key: a, path: x}, {key: b, path: x/y}]}}]}}",
        "{name: v, mountPath: /v}",
    ));
    assert!(e.contains("conflicts with the file \"x\""), "{e}");
    let e = plan_err(&with_mounts(
        "{name: v, projected: {sources: [{serviceAccountToken: {path: t}}]}}",
        "{name: v, mountPath: /mnt}",
    ));
    assert!(e.starts_with("spec.volumes[0].projected.sources[0].serviceAccountToken: not supported by podrun"), "{e}");
}

#[test]
fn paths_can_never_escape_the_volume() {
    for (path, why) in [
        ("../x", "must not contain '..'"),
        ("a/../../x", "must not contain '..'"),
        ("/etc/passwd", "must be a relative path"),
        ("..data", "must not start with '..'"),
    ] {
        let e = plan_err(&with_mounts(
            &format!("{{name: v, configMap: {{name: cfg, items: [{{key: a, path: {path:?}}}]}}}}"),
            "",
        ));
        assert_eq!(e, format!("spec.volumes[0].configMap.items[0].path: Invalid value: {path:?}: {why}"));
        let e = plan_err(&with_mounts(
            "{name: v, emptyDir: {}}",
            &format!("{{name: v, mountPath: /m, subPath: {path:?}}}"),
        ));
        let want = format!("spec.containers[0].volumeMounts[0].subPath: Invalid value: {path:?}: {why}");
        assert!(e.starts_with(&want), "{e}\n  is not {want}");
    }
    // A subPathExpr is checked once expanded.
    let s = Scratch::new("escape");
    let setup =
        plan(&s, &with_mounts("{name: v, emptyDir: {}}", "{name: v, mountPath: /m, subPathExpr: $(DIR)/x}")).unwrap();
    prepare(&setup).unwrap();
    // The expansion may hold a Secret's value: it is never shown.
    let e = setup.mounts_for("c", &[("DIR".into(), "..".into())]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: \"$(DIR)/x\" (as expanded, not shown): must \
         not contain '..'"
    );
    // A symbolic link a container left in a writable volume is never followed, neither by
    // the check before anything is created nor by the mount.
    let dir = dir_of(&setup, "v");
    let outside = s.path("outside");
    fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
    let env = [("DIR".into(), "link".into())];
    for e in [setup.check_mounts("c", &env).unwrap_err(), setup.mounts_for("c", &env).unwrap_err()] {
        assert!(matches!(e, VolumeError::SubPath { cause: SubPathError::Link(_), .. }), "{e:?}");
        assert_eq!(
            crate::error_chain::chain(&e),
            "spec.containers[0].volumeMounts[0].subPathExpr: component 1 of the expanded sub-path is a symbolic \
             link, and a sub-path is never followed through one: it must stay inside its volume"
        );
    }
    assert!(!outside.join("x").exists());
    assert!(!s.files.pod_dir(&pod_uid(&setup)).join("volume-subpaths").exists(), "a refusal mounts nothing");
    // Nor is a link where podrun's own directory should be.
    fs::remove_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(s.path(""), &dir).unwrap();
    let e = crate::error_chain::chain(&prepare(&setup).unwrap_err());
    assert!(e.starts_with("spec.volumes[0]: refusing to use") && e.ends_with("it is a symbolic link"), "{e}");
}

#[test]
fn re_apply_swaps_files_atomically_in_the_kubelets_layout() {
    let s = Scratch::new("rewrite");
    let spec = with_mounts("{name: v, configMap: {name: cfg}}", "{name: v, mountPath: /mnt}");
    let setup = plan(&s, &spec).unwrap();
    prepare(&setup).unwrap();
    let d = dir_of(&setup, "v");
    let link = |p: &str| fs::read_link(d.join(p)).unwrap().to_string_lossy().into_owned();
    // `..data` links to a timestamped data directory, each key to its file through `..data`.
    let data0 = link("..data");
    assert!(data0.starts_with("..20") && d.join(&data0).is_dir(), "{data0}");
    assert_eq!((link("a"), link("b")), ("..data/a".to_owned(), "..data/b".to_owned()));
    // Unchanged: left alone.
    prepare(&setup).unwrap();
    assert_eq!(link("..data"), data0);
    // Changed: a new data directory, `..data` swapped to it (every file at once); the old one
    // and the links of keys that are gone are removed, and so is what podrun did not make.
    let mut store = ConfigStore::new();
    let cm = ConfigMap {
        metadata: ObjectMeta { name: "cfg".into(), ..Default::default() },
        data: [("a".to_owned(), "uno".to_owned()), ("c".to_owned(), "tres".to_owned())].into(),
        ..Default::default()
    };
    store.add_config_map("default", &cm).unwrap();
    fs::create_dir(d.join("junk")).unwrap();
    let setup2 = plan_volumes(&pod(&spec), &s.files, &store, &facts()).unwrap();
    prepare(&setup2).unwrap();
    assert_eq!(read(&d.join("a")), "uno");
    assert_eq!(read(&d.join("c")), "tres");
    assert_ne!(link("..data"), data0);
    assert!(!d.join(&data0).exists() && !d.join("b").exists() && !d.join("junk").exists());
    let mut names: Vec<String> =
        fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    names.sort();
    assert_eq!(
        names,
        vec![link("..data"), "..data".to_owned(), "a".to_owned(), "c".to_owned()],
        "nothing else is left"
    );
    // A volume of plain files (written so by an older podrun) becomes the same layout.
    fs::remove_dir_all(&d).unwrap();
    fs::create_dir_all(d.join("nested")).unwrap();
    fs::write(d.join("a"), "old").unwrap();
    prepare(&setup2).unwrap();
    assert_eq!((link("a"), read(&d.join("a"))), ("..data/a".to_owned(), "uno".to_owned()));
    assert!(!d.join("nested").exists());
}

#[test]
fn claims_are_named_volumes() {
    let s = Scratch::new("claim");
    let spec = with_mounts(
        "{name: data, persistentVolumeClaim: {claimName: db}}, {name: ro, persistentVolumeClaim: {claimName: db, \
         readOnly: true}}",
        "{name: data, mountPath: /data}, {name: ro, mountPath: /ro}",
    );
    let setup = plan(&s, &spec).unwrap();
    let named = setup.named_volumes();
    assert_eq!(named.len(), 1, "one engine volume per claim");
    assert_eq!(named[0].name, "podrun-default-db");
    assert_eq!(named[0].labels["io.podrun.managed"], "true");
    assert_eq!(named[0].labels["io.kubernetes.pod.namespace"], "default");
    assert_eq!(named[0].labels["io.podrun.claim"], "db");
    prepare(&setup).unwrap();
    assert_eq!(
        setup.mounts_for("c", &[]).unwrap(),
        vec![
            Mount::Volume { name: "podrun-default-db".into(), target: "/data".into(), read_only: false },
            Mount::Volume { name: "podrun-default-db".into(), target: "/ro".into(), read_only: true },
        ]
    );
    let e = plan_err(&with_mounts(
        "{name: data, persistentVolumeClaim: {claimName: db}}",
        "{name: data, mountPath: /d, subPath: x}",
    ));
    assert!(e.starts_with("spec.containers[0].volumeMounts[0].subPath: not supported by podrun"), "{e}");
    assert!(e.contains("cannot mount a sub-path of a named volume"), "{e}");
    let e = plan_err(&with_mounts("{name: data, persistentVolumeClaim: {}}", "{name: data, mountPath: /mnt}"));
    assert_eq!(e, "spec.volumes[0].persistentVolumeClaim.claimName: Required value");
}

#[test]
fn propagation_and_recursive_read_only() {
    let s = Scratch::new("propagation");
    let spec = "  volumes: [{name: h, hostPath: {path: /tmp}}]\n  containers:\n  - name: c\n    image: x:1\n    \
                securityContext: {privileged: true}\n    volumeMounts:\n    - {name: h, mountPath: /a, mountPropagation: \
                HostToContainer}\n    - {name: h, mountPath: /b, mountPropagation: Bidirectional}\n    - {name: h, \
                mountPath: /c, readOnly: true, recursiveReadOnly: IfPossible}\n    - {name: h, mountPath: /d, readOnly: \
                true, recursiveReadOnly: Enabled}\n";
    let props = |setup: &VolumeSetup| -> Vec<(Propagation, bool, bool)> {
        let m = setup.mounts_for("c", &[]).unwrap();
        m.iter()
            .map(|m| match m {
                Mount::Bind { propagation, read_only, recursive_read_only, .. } => {
                    (*propagation, *read_only, *recursive_read_only)
                }
                other @ (Mount::Volume { .. } | Mount::Image { .. }) => panic!("{other:?}"),
            })
            .collect()
    };
    let engine = EngineInfo { name: "Engine".into(), version: "x".into(), api_version: "1.41".into() };
    let mut setup = plan(&s, spec).unwrap();
    let e = setup.check_engine(&engine, &EngineFeatures::NONE).unwrap_err().to_string();
    assert!(
        e.starts_with("spec.containers[0].volumeMounts[3].recursiveReadOnly: Unsupported value: \"Enabled\""),
        "{e}"
    );
    // IfPossible is recursive where the engine can make it so, as Enabled is.
    let rro = EngineFeatures { recursive_read_only: true, ..EngineFeatures::NONE };
    setup.check_engine(&engine, &rro).unwrap();
    setup.recursive_if_possible(true);
    assert_eq!(
        props(&setup),
        vec![
            (Propagation::HostToContainer, false, false),
            (Propagation::Bidirectional, false, false),
            (Propagation::Private, true, true),
            (Propagation::Private, true, true),
        ]
    );
    // Without Enabled, an engine that cannot gives IfPossible a plain read-only mount.
    let mut setup = plan(&s, &spec.replace("recursiveReadOnly: Enabled", "recursiveReadOnly: Disabled")).unwrap();
    setup.check_engine(&engine, &EngineFeatures::NONE).unwrap();
    setup.recursive_if_possible(false);
    assert_eq!(props(&setup)[2..], [(Propagation::Private, true, false), (Propagation::Private, true, false)]);
    let e = plan_err(&spec.replace("privileged: true", "privileged: false"));
    assert_eq!(
        e,
        "spec.containers[0].volumeMounts[1].mountPropagation: Forbidden: Bidirectional mount propagation is available \
         only to privileged containers"
    );
    let e = plan_err(&with_mounts("{name: v}", "{name: v, mountPath: /v, recursiveReadOnly: Enabled}"));
    assert_eq!(
        e,
        "spec.containers[0].volumeMounts[0].recursiveReadOnly: Forbidden: may only be specified when readOnly is true"
    );
}

#[test]
fn volumes_and_mounts_are_checked_like_the_api_server() {
    let cases = [
        (with_mounts("{name: v}, {name: v}", ""), "spec.volumes[1].name: Duplicate value: \"v\""),
        (with_mounts("{name: V}", ""), "spec.volumes[0].name: Invalid value: \"V\""),
        (
            with_mounts("{name: v, emptyDir: {}, hostPath: {path: /x}}", ""),
            "spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type",
        ),
        (with_mounts("{name: v}", "{name: w, mountPath: /w}"), "spec.containers[0].volumeMounts[0].name: Not found: \"w\""),
        (
            with_mounts("{name: v}", "{name: v, mountPath: /a}, {name: v, mountPath: /a/}"),
            "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/a/\": must be unique",
        ),
        (with_mounts("{name: v}", "{name: v}"), "spec.containers[0].volumeMounts[0].mountPath: Required value"),
        (
            with_mounts("{name: v}", "{name: v, mountPath: /v, subPath: a, subPathExpr: b}"),
            "spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: \"b\": subPathExpr and subPath are mutually \
             exclusive",
        ),
    ];
    for (spec, want) in cases {
        let e = plan_err(&spec);
        assert!(e.starts_with(want), "{e}\nwanted: {want}");
    }
}

/// A relative mountPath is made absolute as the kubelet makes it (`/` joined, cleaned), and
/// compared with the others as such.
#[test]
fn relative_mount_paths_are_made_absolute() {
    let s = Scratch::new("relative");
    let setup = plan(
        &s,
        &with_mounts("{name: v}, {name: w}", "{name: v, mountPath: ~/.docker}, {name: w, mountPath: a/../b/}"),
    )
    .unwrap();
    let targets: Vec<String> = setup.mounts_for("c", &[]).unwrap().iter().map(|m| m.target().to_owned()).collect();
    assert_eq!(targets, ["/~/.docker", "/b"]);
    let e = plan_err(&with_mounts("{name: v}, {name: w}", "{name: v, mountPath: data}, {name: w, mountPath: /data}"));
    assert_eq!(e, "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/data\": must be unique");
}

/// An image volume is a read-only mount of the image by the engine, with its sub-path; its
/// pull policy defaults as a container's. Podman's compatible API ignores the sub-path, so it
/// is refused there.
#[test]
fn image_volumes_are_engine_mounts_of_the_image() {
    let s = Scratch::new("image");
    let spec = with_mounts(
        "{name: i, image: {reference: \"alpine:3\"}}, {name: l, image: {reference: alpine, pullPolicy: Never}}",
        "{name: i, mountPath: /i, readOnly: false}, {name: l, mountPath: /l, subPathExpr: $(D)}",
    );
    let setup = plan(&s, &spec).unwrap();
    let policies: Vec<_> = (setup.volumes().iter())
        .map(|v| match &v.source {
            PlannedSource::Image { reference, pull_policy } => (reference.as_str(), *pull_policy),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(policies, [("alpine:3", PullPolicy::IfNotPresent), ("alpine", PullPolicy::Never)]);
    let env = [("D".to_owned(), "etc".to_owned())];
    assert_eq!(
        setup.mounts_for("c", &env).unwrap(),
        [
            Mount::Image { image: "alpine:3".into(), target: "/i".into(), sub_path: None },
            Mount::Image { image: "alpine".into(), target: "/l".into(), sub_path: Some("etc".into()) },
        ]
    );
    let bad = [("D".to_owned(), "../x".to_owned())];
    let e = setup.mounts_for("c", &bad).unwrap_err().to_string();
    assert!(e.starts_with("spec.containers[0].volumeMounts[1].subPathExpr:"), "{e}");
    let engine = |name: &str| EngineInfo { name: name.into(), version: "4.3.1".into(), api_version: "1.41".into() };
    setup.check_engine(&engine("Docker Engine"), &EngineFeatures::NONE).unwrap();
    let e = setup.check_engine(&engine("Podman Engine"), &EngineFeatures::NONE).unwrap_err().to_string();
    assert_eq!(
        e,
        "spec.containers[0].volumeMounts[1].subPathExpr: not supported by Podman Engine 4.3.1: its Docker-compatible \
         API mounts the whole image and ignores a sub-path (Docker 28+ mounts one)"
    );
}

#[test]
fn sub_path_expr_expands_the_container_environment() {
    let s = Scratch::new("subpathexpr");
    let setup = plan(&s, &with_mounts("{name: v}", "{name: v, mountPath: /v, subPathExpr: logs/$(POD)}")).unwrap();
    prepare(&setup).unwrap();
    let env = [("POD".to_owned(), "old".to_owned()), ("POD".to_owned(), "web-1".to_owned())];
    let m = setup.mounts_for("c", &env).unwrap();
    let want = dir_of(&setup, "v").join("logs/web-1");
    let point = s.files.pod_dir(&pod_uid(&setup)).join("volume-subpaths/v/c/0");
    assert_eq!(m, vec![Mount::bind(point.to_string_lossy(), "/v", false)]);
    assert!(want.is_dir());
    assert!(same_file(&point, &want));
    // A container created earlier is started with its mount points made again: the same.
    assert_eq!(setup.mounts_for("c", &env).unwrap(), m);
    assert!(same_file(&point, &want));
}

#[test]
fn a_host_path_may_be_a_link_and_below_it_the_sub_path_may_not() {
    let s = Scratch::new("hostlink");
    let real = s.path("real");
    fs::create_dir_all(real.join("conf")).unwrap();
    fs::write(real.join("conf/file"), "x").unwrap();
    std::os::unix::fs::symlink(&real, s.path("link")).unwrap();
    std::os::unix::fs::symlink(s.path(""), real.join("up")).unwrap();
    let spec = with_mounts(
        &format!("{{name: h, hostPath: {{path: {:?}}}}}", s.path("link")),
        "{name: h, mountPath: /f, subPath: conf/file}, {name: h, mountPath: /u, subPath: up/real}",
    );
    let setup = plan(&s, &spec).unwrap();
    prepare(&setup).unwrap();
    let e = setup.mounts_for("c", &[]).unwrap_err();
    assert_eq!(
        crate::error_chain::chain(&e),
        "spec.containers[0].volumeMounts[1].subPath: \"up\" is a symbolic link, and a sub-path is never followed \
         through one: it must stay inside its volume"
    );
    fs::remove_file(real.join("up")).unwrap();
    fs::create_dir_all(real.join("up/real")).unwrap();
    let m = setup.mounts_for("c", &[]).unwrap();
    let point = s.files.pod_dir(&pod_uid(&setup)).join("volume-subpaths/h/c/0");
    assert_eq!(m[0], Mount::bind(point.to_string_lossy(), "/f", false));
    assert!(fs::symlink_metadata(&point).unwrap().is_file(), "a file's mount point is a file");
    assert_eq!(read(&point), "x");
    remove_pod_volumes(&s.files, &pod_uid(&setup));
    s.files.remove_pod(&pod_uid(&setup));
    assert!(!s.files.pod_dir(&pod_uid(&setup)).exists());
    assert_eq!(read(&real.join("conf/file")), "x", "the host's files stay");
}

#[test]
fn expansion_rules() {
    let env = [("A".to_owned(), "x".to_owned()), ("B".to_owned(), "y".to_owned())];
    for (input, want) in [
        ("$(A)/$(B)", "x/y"),
        ("$(C)", "$(C)"),
        ("$$(A)", "$(A)"),
        ("a$$b", "a$b"),
        ("$A", "$A"),
        ("$(A", "$(A"),
        ("end$", "end$"),
        ("é$(A)é", "éxé"),
        ("$$$(A)", "$x"),
    ] {
        assert_eq!(expand(input, &env).unwrap(), want, "{input}");
    }
}

#[test]
fn removal_refuses_a_uid_that_is_not_a_plain_name() {
    let s = Scratch::new("uid");
    let victim = s.path("victim/volumes");
    fs::create_dir_all(&victim).unwrap();
    remove_pod_volumes(&s.files, "..");
    remove_pod_volumes(&s.files, "a/../..");
    assert!(victim.exists());
}

#[test]
fn dev_shm_is_found_as_a_tmpfs() {
    // The test machines (and scripts/test) have the usual tmpfs /dev/shm.
    assert_eq!(fs_type(Path::new("/dev/shm/podrun-x/y")).as_deref(), Some("tmpfs"));
    assert!(fs_type(Path::new("/")).is_some());
}

#[test]
fn modes_read_as_kubernetes_reads_them() {
    let mode_in = |m: &str| -> Result<Option<i64>, String> {
        let text = format!("{HEAD}spec:\n  volumes: [{{name: v, configMap: {{name: cfg, defaultMode: {m}}}}}]\n  containers: [{{name: c, image: x:1}}]\n");
        load(&Source::from_text("t.yaml", &text), &LoadOptions::default())
            .map(|mut l| l.pods.remove(0).pod.spec.volumes[0].config_map.as_ref().unwrap().default_mode)
            .map_err(|e| e.to_string())
    };
    // YAML 1.1, as Kubernetes reads it: a leading 0 means octal.
    assert_eq!(mode_in("0600"), Ok(Some(0o600)));
    assert_eq!(mode_in("0o600"), Ok(Some(0o600)));
    assert_eq!(mode_in("420"), Ok(Some(420)));
    assert_eq!(mode_in("0"), Ok(Some(0)));
    assert!(mode_in("0800").unwrap_err().contains("a file mode"));
    assert!(mode_in("rw").unwrap_err().contains("a file mode"));
}

#[test]
fn a_sub_path_expr_refusal_never_shows_what_it_expanded_to() {
    let s = Scratch::new("exprsecret");
    let setup =
        plan(&s, &with_mounts("{name: v, emptyDir: {}}", "{name: v, mountPath: /m, subPathExpr: $(TOKEN)/x}")).unwrap();
    prepare(&setup).unwrap();
    let secret = "s3cr3t-Q7xv";
    for value in [format!("/{secret}"), format!("{secret}/../.."), format!("{secret}\0")] {
        let e = setup.mounts_for("c", &[("TOKEN".into(), value.clone())]).unwrap_err().to_string();
        assert!(!e.contains(secret), "{e}");
        assert!(e.starts_with("spec.containers[0].volumeMounts[0].subPathExpr: Invalid value: \"$(TOKEN)/x\""), "{e}");
    }
    // Refused on the host: a link planted under the expanded path. The refusal counts
    // components, never names them.
    let dir = dir_of(&setup, "v");
    std::os::unix::fs::symlink("/etc", dir.join(secret)).unwrap();
    let e = setup.mounts_for("c", &[("TOKEN".into(), secret.into())]).unwrap_err();
    let e = crate::error_chain::chain(&e);
    assert!(!e.contains(secret), "{e}");
    assert!(e.contains("subPathExpr") && e.contains("symbolic link"), "{e}");
}

/// Whatever the planner refuses for the manifest's sake alone (not for a missing ConfigMap, a
/// host path or the engine), validation refuses too, at the same field: so `validate` says
/// it, and `apply` before anything is created. Each case is a pod spec the planner refuses.
/// (The planner's own refusals stay, behind validation: these are the same rules.)
#[test]
fn validation_refuses_what_the_planner_refuses_for_the_manifest() {
    let long = "n".repeat(256);
    let c = "  containers: [{name: c, image: x:1, volumeMounts: [{name: v, mountPath: /v}]}]\n";
    let with = |volume: &str| format!("{c}  volumes: [{{name: v, {volume}}}]\n");
    let mounting = |mount: &str, volume: &str| {
        format!(
            "  containers: [{{name: c, image: x:1, volumeMounts: [{mount}]}}]\n  volumes: [{{name: v, {volume}}}]\n"
        )
    };
    let cases = [
        with("configMap: {name: cfg, items: [{key: a, path: x}, {key: b, path: x}]}"),
        with("configMap: {name: cfg, items: [{key: a, path: x}, {key: b, path: x/y}]}"),
        with(&format!("configMap: {{name: cfg, items: [{{key: a, path: {long}}}]}}")),
        with("configMap: {name: cfg, items: [{key: a, path: \"a\\0b\"}]}"),
        with("configMap: {name: cfg, items: [{key: a, path: .}]}"),
        with("projected: {sources: [{configMap: {name: cfg, items: [{key: a, path: p}]}}, {secret: {name: sec, items: [{key: password, path: p}]}}]}"),
        with("projected: {sources: [{configMap: {name: cfg, items: [{key: a, path: p}]}}, {secret: {name: sec, items: [{key: password, path: ./p}]}}]}"),
        with("emptyDir: {medium: HugePages}"),
        with("persistentVolumeClaim: {claimName: Not_A_Name}"),
        with("nfs: {server: nas, path: /x}"),
        mounting("{name: v, mountPath: /}", "emptyDir: {}"),
        mounting("{name: v, mountPath: /a/./b}, {name: v, mountPath: /a//b}", "emptyDir: {}"),
        mounting("{name: v, mountPath: /a, subPath: ..x}", "emptyDir: {}"),
        mounting("{name: v, mountPath: /a, subPath: .}", "emptyDir: {}"),
        mounting(&format!("{{name: v, mountPath: /a, subPath: {long}}}"), "emptyDir: {}"),
        mounting("{name: v, mountPath: /a, subPath: x}", "persistentVolumeClaim: {claimName: data}"),
    ];
    for spec in cases {
        let s = Scratch::new("parity");
        let planned = plan(&s, &spec);
        let Err(refusal) = planned else { panic!("the planner takes it, so the case proves nothing:\n{spec}") };
        let field = match &refusal {
            VolumeError::Invalid { field, .. } | VolumeError::Unsupported { field, .. } => field.clone(),
            VolumeError::Checked(e) => e.path.clone(),
            other => panic!("not a refusal for the manifest's sake: {other}\n{spec}"),
        };
        let (errors, _) = crate::manifest::validate::validate_pod(&pod(&spec));
        // At the field, or above it where the API server says it (two projected sources).
        assert!(
            errors.iter().any(|e| e.path == field || field.starts_with(&format!("{}.", e.path))),
            "the planner refuses {refusal}, validation does not (at {field}): {errors:#?}\n{spec}"
        );
    }
    // And what the planner takes, validation takes.
    let s = Scratch::new("parity-ok");
    let fine =
        with("projected: {sources: [{}, {configMap: {name: cfg, items: [{key: a, path: d/a}, {key: b, path: d/b}]}}]}");
    assert!(plan(&s, &fine).is_ok());
    assert_eq!(crate::manifest::validate::validate_pod(&pod(&fine)).0, []);
}

/// The kubelet sets up only the volumes a container uses: an unused one is neither made nor
/// checked, on the host or on the engine, and validation still checks it.
#[test]
fn only_the_volumes_a_container_uses_are_set_up() {
    let s = Scratch::new("unused");
    let spec = with_mounts(
        "{name: used, emptyDir: {}}, {name: gone, hostPath: {path: GONE, type: Directory}}, {name: made, hostPath: \
         {path: MADE, type: DirectoryOrCreate}}, {name: file, hostPath: {path: FILE, type: FileOrCreate}}, {name: e, \
         emptyDir: {medium: Memory}}, {name: cm, configMap: {name: nope}}, {name: claim, persistentVolumeClaim: \
         {claimName: data}}, {name: dir, emptyDir: {}}",
        "{name: used, mountPath: /u}",
    )
    .replace("GONE", s.path("gone").to_str().unwrap())
    .replace("MADE", s.path("made").to_str().unwrap())
    .replace("FILE", s.path("file").to_str().unwrap());
    let setup = plan(&s, &spec).unwrap();
    let names: Vec<&str> = setup.volumes().iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["used"]);
    prepare(&setup).unwrap();
    assert!(dir_of(&setup, "used").is_dir());
    assert!(!s.path("gone").exists() && !s.path("made").exists() && !s.path("file").exists());
    let volumes_dir = dir_of(&setup, "used").parent().unwrap().to_path_buf();
    let made: Vec<_> = fs::read_dir(&volumes_dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(made, ["used"], "no emptyDir or configMap directory for an unused volume");
    assert!(!setup.shm_dir.exists(), "no Memory emptyDir on /dev/shm");
    assert!(setup.named_volumes().is_empty(), "no engine volume for an unused claim");
    let on_engine = plan(&s, &spec).unwrap().on_engine();
    let engine: Vec<String> = on_engine.engine_volumes("default", "p").into_iter().map(|v| v.name).collect();
    let uid = &setup.uid;
    assert_eq!(engine, [engine::engine_volume_name(uid, "used"), engine::termination_volume_name(uid)]);
    // Validation's rules still hold for an unused volume.
    let e = plan_err(&with_mounts("{name: u, hostPath: {path: rel}}", ""));
    assert!(e.starts_with("spec.volumes[0].hostPath.path: Invalid value: \"rel\""), "{e}");
}
