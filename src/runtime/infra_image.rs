//! The pod infra ("pause") image, built locally so podrun needs no registry for it.
//!
//! podrun ships its own pause program (`pause/pause.rs`, compiled by build.rs into a static,
//! libc-free binary of a few KiB). On first use an engine backend loads [`image_archive`] (a
//! `docker save` archive, the engine's "load images" API) as the image [`default_infra_image`].
//! This module only produces those bytes; it makes no engine calls.
//!
//! An archive rather than a rootfs import with Dockerfile `changes`: it carries the whole image
//! config, which Docker and Podman read the same way, while they parse import changes
//! differently (Podman takes each `changes` value as one instruction, and bollard sends them
//! joined by newlines in one value, so Podman made `ENTRYPOINT` a shell command of the rest).
//!
//! The tag carries podrun's version and the archive is byte-for-byte deterministic, so a given
//! podrun build always yields the same image (the same image id on every engine) and an
//! existing tag can be reused as is.

use std::io;

use ring::digest::{digest, SHA256};

/// The pause binary, compiled by build.rs.
pub const PAUSE_BINARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/pause"));

/// Where the pause binary lives in the image, relative to its root (as stored in the tar).
const PAUSE_PATH: &str = "pause";

/// The user the pause program runs as, like Kubernetes' pause image: it needs no privilege (it
/// only waits for signals and reaps its own children).
const PAUSE_USER: &str = "65535:65535";

/// The default infra image reference: `localhost/podrun-pause:<version>-<hash of the rootfs>`.
///
/// The `localhost/` prefix marks it as a locally built image, never to be mistaken for a Docker
/// Hub one (Podman would look it up there under `docker.io/library/`). The hash keeps a rebuilt
/// pause program (same version, other toolchain or source) from reusing a stale image under the
/// same tag.
pub fn default_infra_image() -> String {
    let hash = crate::fnv::fnv1a64(&rootfs_tar());
    format!("localhost/podrun-pause:{}-{:08x}", env!("CARGO_PKG_VERSION"), hash >> 32)
}

/// A tar archive (uncompressed) of the infra rootfs: `/pause` (mode 0755, owner 0:0) and nothing
/// else; deterministic (mtime 0, every header field fixed, one entry so no order to vary) so the
/// same podrun build always produces the same bytes.
///
/// No directories are needed: the engine creates `/dev`, `/proc`, `/sys` and the `/etc` files it
/// bind-mounts when it sets up a container.
pub fn rootfs_tar() -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    append(&mut builder, PAUSE_PATH, 0o755, PAUSE_BINARY).expect("writing a tar archive to memory cannot fail");
    builder.into_inner().expect("writing a tar archive to memory cannot fail")
}

/// The OCI name of this machine's architecture, for the image config.
fn architecture() -> &'static str {
    if cfg!(target_arch = "aarch64") {
        "arm64"
    } else {
        "amd64"
    }
}

fn sha256_hex(data: &[u8]) -> String {
    digest(&SHA256, data).as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// The image config: `ENTRYPOINT ["/pause"]` (the exec form: the image has no shell), run as
/// 65535:65535, the rootfs as its one layer.
pub fn image_config() -> Vec<u8> {
    let layer = sha256_hex(&rootfs_tar());
    let config = serde_json::json!({
        "architecture": architecture(),
        "os": "linux",
        "created": "1970-01-01T00:00:00Z",
        "config": {"Entrypoint": ["/pause"], "User": PAUSE_USER},
        "rootfs": {"type": "layers", "diff_ids": [format!("sha256:{layer}")]},
    });
    serde_json::to_vec(&config).expect("a JSON value serializes")
}

/// The infra image as a `docker save` archive: `manifest.json` naming the image
/// [`default_infra_image`], its config (`<sha256>.json`) and its one layer
/// (`<sha256>/layer.tar`, the [`rootfs_tar`]). Deterministic, like the rootfs.
pub fn image_archive() -> Vec<u8> {
    write_image_archive().expect("writing a tar archive to memory cannot fail")
}

fn write_image_archive() -> io::Result<Vec<u8>> {
    let layer = rootfs_tar();
    let layer_dir = sha256_hex(&layer);
    let config = image_config();
    let config_file = format!("{}.json", sha256_hex(&config));
    let layer_file = format!("{layer_dir}/layer.tar");
    let manifest = serde_json::json!([{
        "Config": config_file,
        "RepoTags": [default_infra_image()],
        "Layers": [layer_file],
    }]);
    let manifest = serde_json::to_vec(&manifest).expect("a JSON value serializes");

    let mut builder = tar::Builder::new(Vec::new());
    let mut dir = tar::Header::new_gnu();
    dir.set_path(format!("{layer_dir}/"))?;
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_size(0);
    dir.set_mode(0o755);
    dir.set_uid(0);
    dir.set_gid(0);
    dir.set_mtime(0);
    dir.set_cksum();
    builder.append(&dir, io::empty())?;
    append(&mut builder, &layer_file, 0o644, &layer)?;
    append(&mut builder, &config_file, 0o644, &config)?;
    append(&mut builder, "manifest.json", 0o644, &manifest)?;
    builder.into_inner()
}

/// Appends a regular file. Every header field is set explicitly rather than taken from a file
/// on disk, so nothing about the build machine (owner, time, umask) leaks into the image.
fn append(builder: &mut tar::Builder<Vec<u8>>, path: &str, mode: u32, content: &[u8]) -> io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_path(path)?;
    header.set_entry_type(tar::EntryType::Regular);
    header.set_size(content.len() as u64);
    header.set_mode(mode);
    header.set_uid(0);
    header.set_gid(0);
    header.set_mtime(0);
    header.set_cksum();
    builder.append(&header, content)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    use std::path::PathBuf;
    use std::process::{Child, Command, ExitStatus, Stdio};
    use std::thread::sleep;
    use std::time::{Duration, Instant};

    const PT_INTERP: u32 = 3;

    fn u16_at(b: &[u8], off: usize) -> u16 {
        u16::from_le_bytes(b[off..off + 2].try_into().unwrap())
    }
    fn u32_at(b: &[u8], off: usize) -> u32 {
        u32::from_le_bytes(b[off..off + 4].try_into().unwrap())
    }
    fn u64_at(b: &[u8], off: usize) -> u64 {
        u64::from_le_bytes(b[off..off + 8].try_into().unwrap())
    }

    #[test]
    fn pause_binary_is_a_small_static_elf_for_this_arch() {
        let elf = PAUSE_BINARY;
        assert!(elf.len() < 64 * 1024, "pause is {} bytes", elf.len());
        assert!(elf.len() >= 64, "too short for an ELF header");
        assert_eq!(&elf[..4], b"\x7fELF", "not an ELF file");
        assert_eq!(elf[4], 2, "not ELFCLASS64");
        assert_eq!(elf[5], 1, "not little-endian");
        // ET_EXEC, or ET_DYN for a static-pie; either way it must not ask for a loader.
        let e_type = u16_at(elf, 16);
        assert!(e_type == 2 || e_type == 3, "e_type {e_type}");
        let expected_machine = if cfg!(target_arch = "aarch64") {
            183 // EM_AARCH64
        } else {
            62 // EM_X86_64
        };
        assert_eq!(u16_at(elf, 18), expected_machine, "e_machine");

        let phoff = usize::try_from(u64_at(elf, 32)).unwrap();
        let phentsize = usize::from(u16_at(elf, 54));
        let phnum = usize::from(u16_at(elf, 56));
        assert!(phnum > 0 && phentsize >= 56);
        assert!(phoff + phnum * phentsize <= elf.len(), "program headers out of bounds");
        for i in 0..phnum {
            let p_type = u32_at(elf, phoff + i * phentsize);
            assert_ne!(p_type, PT_INTERP, "program header {i} is PT_INTERP: not static");
        }
    }

    #[test]
    fn rootfs_tar_holds_just_pause_0755_root_owned() {
        let tar_bytes = rootfs_tar();
        assert!(tar_bytes.len() < 1024 * 1024, "tar is {} bytes", tar_bytes.len());
        let mut archive = tar::Archive::new(tar_bytes.as_slice());
        let mut names = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let header = entry.header();
            assert_eq!(header.entry_type(), tar::EntryType::Regular, "{path}");
            assert_eq!(header.mode().unwrap(), 0o755, "{path}");
            assert_eq!(header.uid().unwrap(), 0, "{path}");
            assert_eq!(header.gid().unwrap(), 0, "{path}");
            assert_eq!(header.mtime().unwrap(), 0, "{path}");
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            assert_eq!(content, PAUSE_BINARY, "{path}");
            names.push(path);
        }
        assert_eq!(names, [PAUSE_PATH]);
    }

    #[test]
    fn rootfs_tar_is_deterministic() {
        assert_eq!(rootfs_tar(), rootfs_tar());
    }

    #[test]
    fn image_reference() {
        let image = default_infra_image();
        let tag = image.strip_prefix("localhost/podrun-pause:").expect("podrun's local repository");
        let (version, hash) = tag.split_once('-').expect("version-hash");
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
        assert_eq!(hash.len(), 8);
        assert_eq!(image, default_infra_image(), "stable");
    }

    /// The archive's files by name.
    fn archive_files() -> std::collections::BTreeMap<String, Vec<u8>> {
        let bytes = image_archive();
        let mut archive = tar::Archive::new(bytes.as_slice());
        let mut files = std::collections::BTreeMap::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            assert_eq!(entry.header().mtime().unwrap(), 0);
            assert_eq!(entry.header().uid().unwrap(), 0);
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let mut content = Vec::new();
            entry.read_to_end(&mut content).unwrap();
            files.insert(path, content);
        }
        files
    }

    #[test]
    fn image_archive_is_a_docker_save_archive_of_the_rootfs() {
        let files = archive_files();
        let manifest: serde_json::Value = serde_json::from_slice(&files["manifest.json"]).unwrap();
        let entry = &manifest[0];
        assert_eq!(manifest.as_array().unwrap().len(), 1);
        assert_eq!(entry["RepoTags"], serde_json::json!([default_infra_image()]));
        // Content-addressed: each file is named by the SHA-256 of what it holds.
        let config_file = entry["Config"].as_str().unwrap();
        let config = &files[config_file];
        assert_eq!(config_file, format!("{}.json", sha256_hex(config)));
        let layer_file = entry["Layers"][0].as_str().unwrap();
        assert_eq!(files[layer_file], rootfs_tar());
        assert_eq!(layer_file, format!("{}/layer.tar", sha256_hex(&rootfs_tar())));

        let config: serde_json::Value = serde_json::from_slice(config).unwrap();
        assert_eq!(config["config"]["Entrypoint"], serde_json::json!(["/pause"]));
        assert_eq!(config["config"]["User"], "65535:65535");
        assert_eq!(config["os"], "linux");
        assert_eq!(config["rootfs"]["diff_ids"], serde_json::json!([format!("sha256:{}", sha256_hex(&rootfs_tar()))]));
    }

    #[test]
    fn image_archive_is_deterministic() {
        assert_eq!(image_archive(), image_archive());
    }

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    // --- Running the real binary (not as PID 1: that part is checked by hand with an engine).

    /// A pause binary written to a temporary file, and the child running it; both cleaned up
    /// on drop, even when an assertion fails.
    struct Running {
        path: PathBuf,
        child: Child,
    }

    impl Running {
        /// Runs pause with `args`, its stdout piped, and returns at once.
        fn spawn(test_name: &str, args: &[&str]) -> Running {
            let path = std::env::temp_dir().join(format!("podrun-pause-test-{}-{test_name}", std::process::id()));
            fs::write(&path, PAUSE_BINARY).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
            let mut cmd = Command::new(&path);
            cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped());
            let child = spawn_retrying_busy(&mut cmd);
            Running { path, child }
        }

        /// Runs pause without arguments and returns once it is waiting for signals.
        fn start(test_name: &str) -> Running {
            let running = Running::spawn(test_name, &[]);
            running.wait_until_signals_blocked();
            running
        }

        /// Signals sent before pause has blocked them would hit their default action (death
        /// by signal, not exit 0), so wait until /proc shows it past that point: the binary has
        /// been exec'd and either the signals are blocked or it is asleep, which it only ever is
        /// inside rt_sigtimedwait. (While in there, SigBlk reads 0 for the waited-on signals:
        /// the kernel unblocks them for the duration of the wait.)
        fn wait_until_signals_blocked(&self) {
            let wanted: u64 = (1 << (2 - 1)) | (1 << (15 - 1)) | (1 << (17 - 1)); // INT TERM CHLD
            let proc_dir = PathBuf::from(format!("/proc/{}", self.child.id()));
            // /proc/PID/exe is fully resolved; the temp dir may sit behind a symlink.
            let binary = fs::canonicalize(&self.path).unwrap();
            let deadline = Instant::now() + Duration::from_secs(5);
            loop {
                let execd = fs::read_link(proc_dir.join("exe")).is_ok_and(|exe| exe == binary);
                let status = fs::read_to_string(proc_dir.join("status")).unwrap_or_default();
                let field = |name: &str| {
                    status.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default().to_owned()
                };
                let blocked = u64::from_str_radix(&field("SigBlk:"), 16).unwrap_or(0);
                let asleep = field("State:").starts_with('S');
                if execd && (blocked & wanted == wanted || asleep) {
                    return;
                }
                assert!(Instant::now() < deadline, "pause never got to wait for signals");
                sleep(Duration::from_millis(5));
            }
        }

        fn signal(&self, name: &str) {
            let status = Command::new("kill")
                .arg(format!("-{name}"))
                .arg(self.child.id().to_string())
                .status()
                .expect("run kill");
            assert!(status.success(), "kill -{name} failed: {status}");
        }

        fn wait_timeout(&mut self, timeout: Duration) -> Option<ExitStatus> {
            let deadline = Instant::now() + timeout;
            loop {
                if let Some(status) = self.child.try_wait().unwrap() {
                    return Some(status);
                }
                if Instant::now() >= deadline {
                    return None;
                }
                sleep(Duration::from_millis(10));
            }
        }
    }

    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
            let _ = fs::remove_file(&self.path);
        }
    }

    /// Spawns, retrying on ETXTBSY: while we write the binary, another test thread may fork a
    /// child that briefly inherits our still-open write descriptor, and exec of a file open for
    /// writing anywhere fails until that child execs (and close-on-exec drops it).
    fn spawn_retrying_busy(cmd: &mut Command) -> Child {
        const ETXTBSY: i32 = 26;
        let mut attempts = 0;
        loop {
            match cmd.spawn() {
                Ok(child) => return child,
                Err(err) if err.raw_os_error() == Some(ETXTBSY) && attempts < 100 => {
                    attempts += 1;
                    sleep(Duration::from_millis(10));
                }
                Err(err) => panic!("spawning pause: {err}"),
            }
        }
    }

    fn assert_exits_zero_on(signal: &str) {
        let mut pause = Running::start(&format!("exit-on-{signal}"));
        pause.signal(signal);
        let status = pause
            .wait_timeout(Duration::from_secs(2))
            .unwrap_or_else(|| panic!("pause still running 2 s after SIG{signal}"));
        assert_eq!(status.code(), Some(0), "after SIG{signal}: {status}");
    }

    #[test]
    fn pause_exits_zero_on_sigterm() {
        assert_exits_zero_on("TERM");
    }

    #[test]
    fn pause_exits_zero_on_sigint() {
        assert_exits_zero_on("INT");
    }

    #[test]
    fn pause_stays_up_until_signalled() {
        let mut pause = Running::start("stays-up");
        // SIGCHLD with nothing to reap must not end it either.
        pause.signal("CHLD");
        assert_eq!(pause.wait_timeout(Duration::from_millis(300)), None);
        pause.signal("TERM");
        let status = pause.wait_timeout(Duration::from_secs(2));
        assert_eq!(status.and_then(|s| s.code()), Some(0));
    }

    #[test]
    fn pause_prints_version_with_dash_v() {
        let mut pause = Running::spawn("version", &["-v"]);
        let status = pause.wait_timeout(Duration::from_secs(2));
        assert_eq!(status.and_then(|s| s.code()), Some(0));
        let mut stdout = String::new();
        let mut pipe = pause.child.stdout.take().unwrap();
        pipe.read_to_string(&mut stdout).unwrap();
        assert_eq!(stdout, format!("podrun-pause {}\n", env!("CARGO_PKG_VERSION")));
    }
}
