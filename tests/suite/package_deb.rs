//! The Debian package: `scripts/package-deb` builds one around the test binary, and this
//! checks its metadata, its files and its systemd unit, then (as root, where podrun is not
//! installed already) installs it, runs the installed podrun, checks the unit with
//! `systemd-analyze verify`, and purges it again, leaving nothing behind.
//!
//! It needs dpkg-deb and dpkg-shlibdeps (dpkg-dev): without them (not Debian) it skips, unless
//! the tests are required to run (PODRUN_E2E=required, CI), where that is a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;

const UNIT: &str = "lib/systemd/system/podrun-static-pods.service";

fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program).args(args).output().unwrap_or_else(|e| panic!("run {program}: {e}"))
}

fn ok(program: &str, args: &[&str]) -> String {
    let o = run(program, args);
    assert!(o.status.success(), "{program} {}: {}{}", args.join(" "), stdout(&o), stderr(&o));
    stdout(&o)
}

/// Whether `tools` are all there; if not, `test` is counted as skipped (a failure where the
/// tests are required).
fn tools(test: &str, tools: &[&str], what: &str) -> bool {
    let missing: Vec<_> = tools.iter().filter(|t| !crate::common::require::installed(t)).collect();
    if missing.is_empty() {
        return true;
    }
    let message = format!("{what} needs {missing:?} (Debian: apt-get install dpkg-dev systemd lintian)");
    assert!(!e2e_required(), "{message}, and the tests are required to run (PODRUN_E2E/CI)");
    crate::common::require::log_skip(test, &message);
    false
}

/// A directory of the test's own under target/, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp").join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, rest: &str) -> String {
        self.0.join(rest).to_str().unwrap().to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Builds the package around the test binary, compressed with `compress` (zstd: a second,
/// where xz takes half a minute).
fn build(scratch: &Scratch, compress: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/package-deb");
    let out = scratch.path("out");
    let deb = ok(script.to_str().unwrap(), &["--binary", PODRUN, "--out", &out, "--compress", compress]);
    let arch = ok("dpkg", &["--print-architecture"]);
    let expected = format!("{out}/podrun_{}-1_{}.deb", env!("CARGO_PKG_VERSION"), arch.trim());
    assert_eq!(deb.trim(), expected, "scripts/package-deb printed where the package is");
    expected
}

/// lintian finds no error in the package. It reads only gzip and xz archives (Debian 12's
/// lintian), so this package is built with gzip.
#[test]
fn the_debian_package_passes_lintian() {
    if !tools(
        test_name!(),
        &["dpkg-deb", "dpkg-shlibdeps", "strip", "lintian"],
        "checking the Debian package with lintian",
    ) {
        return;
    }
    let scratch = Scratch::new("package-lintian");
    let deb = build(&scratch, "gzip");
    // Exit status 2 is lintian's for "tags of error severity"; its report is what to read.
    let report = run("lintian", &["--tag-display-limit", "0", "--fail-on", "error", &deb]);
    let text = format!("{}{}", stdout(&report), stderr(&report));
    assert!(report.status.success(), "lintian found errors in the package:\n{text}");
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("E: ")).collect();
    assert!(errors.is_empty(), "lintian errors: {errors:#?}");
}

#[test]
fn the_debian_package_holds_the_binary_unit_completions_and_man_page() {
    if !tools(test_name!(), &["dpkg-deb", "dpkg-shlibdeps", "strip"], "building the Debian package") {
        return;
    }
    let scratch = Scratch::new("package-deb");
    let deb = build(&scratch, "zstd");

    // Metadata.
    let field = |name: &str| ok("dpkg-deb", &["--field", &deb, name]).trim().to_owned();
    assert_eq!(field("Package"), "podrun");
    assert_eq!(field("Version"), format!("{}-1", env!("CARGO_PKG_VERSION")));
    assert_eq!(field("Architecture"), ok("dpkg", &["--print-architecture"]).trim());
    // An engine; Docker's own docker-ce conflicts with docker.io, so it must satisfy this too.
    assert_eq!(field("Recommends"), "docker.io | docker-ce | podman");
    assert!(field("Depends").starts_with("libc6 (>= "), "Depends: {}", field("Depends"));
    assert!(field("Maintainer").contains('<'), "Maintainer: {}", field("Maintainer"));
    assert!(field("Installed-Size").parse::<u64>().is_ok_and(|kib| kib > 1000), "{}", field("Installed-Size"));
    assert!(ok("dpkg-deb", &["--info", &deb]).contains("Description: Run a Kubernetes Pod manifest"));

    // Files: path -> mode, all root's.
    let contents = ok("dpkg-deb", &["--contents", &deb]);
    let mut files = BTreeMap::new();
    for line in contents.lines() {
        let cols: Vec<_> = line.split_whitespace().collect();
        assert_eq!(cols[1], "root/root", "{line}");
        files.insert(cols[5].trim_start_matches("./").trim_end_matches('/').to_owned(), cols[0].to_owned());
    }
    for (path, mode) in [
        ("usr/bin/podrun", "-rwxr-xr-x"),
        (UNIT, "-rw-r--r--"),
        ("usr/share/bash-completion/completions/podrun", "-rw-r--r--"),
        ("usr/share/zsh/vendor-completions/_podrun", "-rw-r--r--"),
        ("usr/share/fish/vendor_completions.d/podrun.fish", "-rw-r--r--"),
        ("usr/share/man/man1/podrun.1.gz", "-rw-r--r--"),
        ("usr/share/doc/podrun/copyright", "-rw-r--r--"),
        ("etc/podrun/pods", "drwxr-xr-x"),
        ("etc/podrun/pods/README", "-rw-r--r--"),
    ] {
        assert_eq!(files.get(path).map(String::as_str), Some(mode), "{path} in\n{contents}");
    }
    assert!(!contents.contains("usr/local"), "{contents}");

    let root = scratch.path("root");
    ok("dpkg-deb", &["--raw-extract", &deb, &root]);
    let read =
        |path: &str| std::fs::read_to_string(Path::new(&root).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(read("DEBIAN/conffiles"), "/etc/podrun/pods/README\n");
    for script in ["postinst", "prerm", "postrm"] {
        ok("sh", &["-n", &format!("{root}/DEBIAN/{script}")]);
        // Never started on install: the admin enables it (Debian's way for a service to configure).
        assert!(!read(&format!("DEBIAN/{script}")).contains("invoke start"), "{script} starts the unit");
    }
    // Its enablement is recorded, so that purge removes the symlinks an admin made.
    assert!(read("DEBIAN/postinst").contains("deb-systemd-helper update-state"));

    // The unit runs the packaged binary, and reloads by SIGHUP to it (--supervise re-reads
    // the manifests on SIGHUP).
    let unit = read(UNIT);
    let line = |key: &str| {
        unit.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in\n{unit}")).to_owned()
    };
    assert_eq!(
        line("ExecStart="),
        "ExecStart=/usr/bin/podrun apply /etc/podrun/pods --prune --supervise --timeout 10m"
    );
    assert_eq!(line("ExecReload="), "ExecReload=/bin/kill -HUP $MAINPID");
    assert_eq!(line("Type="), "Type=notify");
    assert_eq!(line("WatchdogSec="), "WatchdogSec=30s");
    assert!(!unit.contains("/usr/local"), "{unit}");
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("manifests/podrun-static-pods.service"))
            .unwrap();
    let settings = |text: &str| text.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n");
    assert_eq!(
        settings(&unit),
        settings(&source).replace("/usr/local/bin/podrun", "/usr/bin/podrun"),
        "the packaged unit is manifests/'s"
    );

    // The packaged binary is the one given (stripped), and the completions and the man page
    // are what it prints.
    assert_eq!(ok(&format!("{root}/usr/bin/podrun"), &["--version"]), stdout(&podrun(&["--version"], None)));
    for (path, args) in [
        ("usr/share/bash-completion/completions/podrun", &["completions", "bash"][..]),
        ("usr/share/zsh/vendor-completions/_podrun", &["completions", "zsh"]),
        ("usr/share/fish/vendor_completions.d/podrun.fish", &["completions", "fish"]),
    ] {
        assert_eq!(read(path), stdout(&podrun(args, None)), "{path}");
    }
    let man = ok("sh", &["-c", &format!("gzip -dc {root}/usr/share/man/man1/podrun.1.gz")]);
    assert_eq!(man, stdout(&podrun(&["man"], None)));
    assert!(read("usr/share/doc/podrun/copyright").contains("License: Apache-2.0"));
    assert!(read("etc/podrun/pods/README").contains("systemctl enable --now podrun-static-pods"));

    install_and_purge(&deb);
}

/// The test whose part `install_and_purge` is, for its skips.
const PACKAGE_TEST: &str = "package_deb::the_debian_package_holds_the_binary_unit_completions_and_man_page";

/// Installs the package, checks the installed podrun and unit, and purges it. Only as root
/// and only where podrun is not installed already (a user's own package is never touched).
fn install_and_purge(deb: &str) {
    let installed = run("dpkg-query", &["--show", "--showformat=${Status}", "podrun"]);
    let is_root = stdout(&run("id", &["-u"])).trim() == "0";
    if !is_root
        || stdout(&installed).contains("installed")
        || Path::new("/usr/bin/podrun").exists()
        || Path::new("/etc/podrun").exists()
    {
        let why = "needs root, and no podrun package, /usr/bin/podrun or /etc/podrun on the machine";
        crate::common::require::log_skip(&format!("{PACKAGE_TEST}: the install check"), why);
        return;
    }
    let guard = Installed;
    dpkg(&["--install", deb]).unwrap();
    let listed = ok("dpkg-query", &["--listfiles", "podrun"]);
    assert_eq!(ok("/usr/bin/podrun", &["--version"]), stdout(&podrun(&["--version"], None)));
    assert!(Path::new("/etc/podrun/pods/README").exists());
    // Not enabled, not started on install.
    if crate::common::require::installed("systemctl") {
        let state = stdout(&run("systemctl", &["is-enabled", "podrun-static-pods.service"]));
        assert_eq!(state.trim(), "disabled", "podrun-static-pods.service after install");
    }
    if tools(&format!("{PACKAGE_TEST}: the unit check"), &["systemd-analyze"], "checking the systemd unit") {
        // With the package installed, the unit's programs and man page are all there.
        ok("systemd-analyze", &["verify", &format!("/{UNIT}")]);
    }
    drop(guard);

    // Purged: every file it installed is gone, and so is /etc/podrun.
    for path in listed.lines().filter(|p| !p.is_empty()) {
        let shared = Path::new(path).is_dir() && !path.contains("podrun");
        assert!(shared || !Path::new(path).exists(), "{path} is left after purge");
    }
    assert!(!Path::new("/etc/podrun").exists(), "/etc/podrun is left after purge");
    let state = "/var/lib/systemd/deb-systemd-helper-enabled/podrun-static-pods.service.dsh-also";
    assert!(!Path::new(state).exists(), "{state} is left after purge");
}

/// Purges the package when dropped, also when a check failed.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        if let Err(e) = dpkg(&["--purge", "podrun"]) {
            eprintln!("{e}");
        }
        // man-db's cache of the page, made when someone (the trigger) formatted it.
        let _ = std::fs::remove_file("/var/cache/man/cat1/podrun.1.gz");
    }
}

/// dpkg, waiting (up to two minutes) while another dpkg or apt holds its lock.
fn dpkg(args: &[&str]) -> Result<(), String> {
    for _ in 0..120 {
        let o = run("dpkg", args);
        if o.status.success() {
            return Ok(());
        }
        if !stderr(&o).contains("lock") {
            return Err(format!("dpkg {}: {}{}", args.join(" "), stdout(&o), stderr(&o)));
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    Err(format!("dpkg {}: its lock stayed taken for two minutes", args.join(" ")))
}
