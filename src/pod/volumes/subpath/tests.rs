//! The sub-path walk and its bind mounts, on a scratch directory of the test's own (the mounts
//! need root, as podrun does).

use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use rustix::fs::RenameFlags;

use super::*;

/// A directory of the test's own: `vol` (the volume), `outside` (a canary with a marker file,
/// which nothing may reach) and `pod` (a pod directory); removed, mounts first, when dropped.
struct Scratch {
    root: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("podrun-subpath-{}-{name}", std::process::id()));
        let s = Scratch { root };
        s.clean();
        for d in ["vol", "outside", "pod"] {
            fs::create_dir_all(s.root.join(d)).unwrap();
        }
        fs::write(s.outside().join("MARKER"), "canary").unwrap();
        s
    }

    fn vol(&self) -> PathBuf {
        self.root.join("vol")
    }

    fn outside(&self) -> PathBuf {
        self.root.join("outside")
    }

    fn pod(&self) -> PathBuf {
        self.root.join("pod")
    }

    fn clean(&self) {
        assert!(remove(&self.pod()), "the mount points are removed");
        let _ = fs::remove_dir_all(&self.root);
    }

    /// The canary holds its marker, and nothing else.
    fn assert_canary_untouched(&self) {
        let names: Vec<_> = fs::read_dir(self.outside()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec!["MARKER"]);
        assert_eq!(fs::read_to_string(self.outside().join("MARKER")).unwrap(), "canary");
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = remove(&self.pod());
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn mode_of(p: &Path) -> u32 {
    fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

/// How many mounts /proc/self/mountinfo lists at `point`.
fn mounts_at(point: &Path) -> usize {
    let info = fs::read_to_string("/proc/self/mountinfo").unwrap();
    let point = point.to_str().unwrap();
    info.lines().filter(|l| l.split(' ').nth(4) == Some(point)).count()
}

#[test]
fn a_symbolic_link_on_the_way_is_refused() {
    let s = Scratch::new("link");
    symlink(s.outside(), s.vol().join("a")).unwrap();
    for rel in ["a", "a/x", "a/MARKER"] {
        let e = open(&s.vol(), Path::new(rel), true).unwrap_err();
        assert!(matches!(e, SubPathError::Link(_)), "{rel}: {e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "{:?} is a symbolic link, and a sub-path is never followed through one: it must stay inside its volume",
                "a"
            )
        );
        assert!(matches!(check(&s.vol(), Path::new(rel), true), Err(SubPathError::Link(_))), "{rel}");
    }
    // Deeper down too, and a file on the way is no directory.
    fs::create_dir(s.vol().join("d")).unwrap();
    symlink("../../outside", s.vol().join("d/up")).unwrap();
    assert!(matches!(open(&s.vol(), Path::new("d/up/x"), true), Err(SubPathError::Link(_))));
    fs::write(s.vol().join("f"), "").unwrap();
    assert!(matches!(open(&s.vol(), Path::new("f/x"), true), Err(SubPathError::NotDirectory(_))));
    s.assert_canary_untouched();
}

#[test]
fn dot_dot_cannot_leave_the_volume() {
    let s = Scratch::new("dotdot");
    fs::create_dir(s.vol().join("a")).unwrap();
    for rel in ["../outside", "a/../../outside/x", "/etc"] {
        let e = open(&s.vol(), Path::new(rel), true).unwrap_err();
        assert!(matches!(e, SubPathError::Outside(_)), "{rel}: {e:?}");
    }
    s.assert_canary_untouched();
    assert!(!s.root.join("x").exists());
}

#[test]
fn missing_directories_are_made_with_the_volume_mode_and_never_through_a_link() {
    let s = Scratch::new("create");
    fs::set_permissions(s.vol(), fs::Permissions::from_mode(0o2777)).unwrap();
    // A check creates nothing.
    check(&s.vol(), Path::new("a/b/c"), true).unwrap();
    assert!(!s.vol().join("a").exists());
    let o = open(&s.vol(), Path::new("a/b/c"), true).unwrap();
    assert!(o.dir);
    for d in ["a", "a/b", "a/b/c"] {
        assert_eq!(mode_of(&s.vol().join(d)), 0o2777, "{d}: the volume's mode, whatever the umask");
    }
    let md = fs::metadata(s.vol().join("a/b/c")).unwrap();
    assert_eq!((md.dev(), md.ino()), (o.dev, o.ino), "what is opened is what was made");
    // A link in place of a missing directory is refused, and nothing is made beyond it.
    symlink(s.outside(), s.vol().join("a/l")).unwrap();
    assert!(matches!(open(&s.vol(), Path::new("a/l/new"), true), Err(SubPathError::Link(_))));
    s.assert_canary_untouched();
}

#[test]
fn a_link_planted_as_the_last_component_is_refused() {
    let s = Scratch::new("last");
    symlink(s.outside().join("MARKER"), s.vol().join("file")).unwrap();
    symlink(s.outside(), s.vol().join("dir")).unwrap();
    symlink(s.root.join("nowhere"), s.vol().join("dangling")).unwrap();
    for rel in ["file", "dir", "dangling"] {
        let e = open(&s.vol(), Path::new(rel), true).unwrap_err();
        assert!(matches!(e, SubPathError::Link(_)), "{rel}: {e:?}");
    }
    assert!(!s.root.join("nowhere").exists(), "a dangling link is not created through");
    s.assert_canary_untouched();
}

#[test]
fn a_fifo_as_the_last_component_is_opened_without_blocking() {
    let s = Scratch::new("fifo");
    let dir = rustix::fs::open(s.vol(), OFlags::PATH | OFlags::DIRECTORY, Mode::empty()).unwrap();
    rustix::fs::mknodat(&dir, "pipe", FileType::Fifo, Mode::from_raw_mode(0o600), 0).unwrap();
    let vol = s.vol();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(open(&vol, Path::new("pipe"), true).map(|o| o.dir));
    });
    // An open for reading would wait for a writer for ever.
    let got = rx.recv_timeout(Duration::from_secs(5)).expect("opening a FIFO must not block");
    assert_eq!(got, Ok(false));
}

#[test]
fn an_expanded_sub_path_is_never_shown() {
    let s = Scratch::new("hidden");
    symlink(s.outside(), s.vol().join("s3cret")).unwrap();
    let e = open(&s.vol(), Path::new("s3cret/x"), false).unwrap_err().to_string();
    assert!(e.starts_with("component 1 of the expanded sub-path is a symbolic link"), "{e}");
    assert!(!e.contains("s3cret"), "{e}");
}

#[test]
fn the_mount_point_shows_what_was_opened_and_is_redone_when_it_changed() {
    let s = Scratch::new("bind");
    fs::create_dir(s.vol().join("d")).unwrap();
    fs::write(s.vol().join("d/kept"), "data").unwrap();
    let o = open(&s.vol(), Path::new("d"), true).unwrap();
    let point = bind(&o, &s.pod(), "v", "c", 3).unwrap();
    assert_eq!(point, s.pod().join("volume-subpaths/v/c/3"));
    assert_eq!(fs::read_to_string(point.join("kept")).unwrap(), "data");
    assert_eq!(mode_of(&s.pod().join("volume-subpaths/v/c")), 0o700);
    // Again (a re-apply): the mount there is the right one, and kept.
    assert_eq!(bind(&open(&s.vol(), Path::new("d"), true).unwrap(), &s.pod(), "v", "c", 3).unwrap(), point);
    assert_eq!(mounts_at(&point), 1);
    // The sub-path now names another directory: the old mount goes, the new one is there.
    fs::rename(s.vol().join("d"), s.vol().join("old")).unwrap();
    fs::create_dir(s.vol().join("d")).unwrap();
    bind(&open(&s.vol(), Path::new("d"), true).unwrap(), &s.pod(), "v", "c", 3).unwrap();
    assert_eq!(mounts_at(&point), 1);
    assert!(!point.join("kept").exists());
    // And then a file: the mount point becomes a file.
    fs::remove_dir(s.vol().join("d")).unwrap();
    fs::write(s.vol().join("d"), "a file").unwrap();
    bind(&open(&s.vol(), Path::new("d"), true).unwrap(), &s.pod(), "v", "c", 3).unwrap();
    assert_eq!(fs::read_to_string(&point).unwrap(), "a file");
    // Removal unmounts, and never goes into what a mount point shows.
    let o = open(&s.vol(), Path::new("old"), true).unwrap();
    let other = bind(&o, &s.pod(), "v", "c", 4).unwrap();
    assert!(remove(&s.pod()));
    assert!(!s.pod().join("volume-subpaths").exists());
    assert_eq!((mounts_at(&point), mounts_at(&other)), (0, 0));
    assert_eq!(fs::read_to_string(s.vol().join("old/kept")).unwrap(), "data", "the volume keeps its content");
    assert_eq!(fs::read_to_string(s.vol().join("d")).unwrap(), "a file");
}

#[test]
fn a_sub_path_removed_before_its_mount_is_said_so() {
    let s = Scratch::new("removed");
    let o = open(&s.vol(), Path::new("gone"), true).unwrap();
    fs::remove_dir(s.vol().join("gone")).unwrap();
    let e = bind(&o, &s.pod(), "v", "c", 0).unwrap_err();
    assert!(matches!(e, SubPathError::Removed { cause: Errno::NOENT, .. }), "{e:?}");
    assert_eq!(mounts_at(&s.pod().join("volume-subpaths/v/c/0")), 0);
}

#[test]
fn a_flipping_link_never_gets_the_outside_mounted() {
    let s = Scratch::new("race");
    fs::create_dir(s.vol().join("sub")).unwrap();
    symlink(s.outside(), s.vol().join("alt")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let flipper = {
        let (stop, vol) = (Arc::clone(&stop), s.vol());
        std::thread::spawn(move || {
            let dir = rustix::fs::open(&vol, OFlags::PATH | OFlags::DIRECTORY, Mode::empty()).unwrap();
            let mut flips = 0_u64;
            while !stop.load(Ordering::Relaxed) {
                // `sub` is a directory or a link to the canary, never missing.
                rustix::fs::renameat_with(&dir, "sub", &dir, "alt", RenameFlags::EXCHANGE).unwrap();
                flips += 1;
            }
            flips
        })
    };
    let (mut mounted, mut refused) = (0, 0);
    // At least 300 tries, and on until both outcomes were seen (the flipper may be scheduled
    // late on a busy machine), within a bound.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    for i in 0.. {
        if i >= 300 && (mounted > 0 && refused > 0 || std::time::Instant::now() > deadline) {
            break;
        }
        match open(&s.vol(), Path::new("sub"), true) {
            Ok(o) => {
                let point = bind(&o, &s.pod(), "v", "c", 0).unwrap();
                assert!(!point.join("MARKER").exists(), "the canary was mounted");
                mounted += 1;
            }
            Err(SubPathError::Link(_)) => refused += 1,
            Err(e) => panic!("{e:?}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    let flips = flipper.join().unwrap();
    assert!(flips > 0 && mounted > 0 && refused > 0, "{flips} flips, {mounted} mounted, {refused} refused");
    s.assert_canary_untouched();
}
