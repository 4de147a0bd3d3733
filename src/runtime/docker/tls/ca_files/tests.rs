use std::fs;

use super::*;

/// A public root CA's certificate (ISRG Root X1), as any system bundle has it.
const ROOT: &str = include_str!("isrg_root_x1.pem");

fn roots(file: Option<&Path>, dirs: &[PathBuf], cache: &Cache) -> Result<usize, String> {
    roots_of(file, dirs, cache).map(|r| r.len()).map_err(|e| crate::error_chain::chain(&e))
}

#[test]
fn a_file_too_large_is_refused_by_name_unread() {
    let dir = crate::test_support::TempDir::new("ca-large");
    let big = dir.join("big.pem");
    fs::File::create(&big).unwrap().set_len(MAX_FILE + 1).unwrap();
    let e = roots(Some(&big), &[], &Cache::default()).unwrap_err();
    assert_eq!(e, format!("the CA certificate {}: larger than 4 MiB, more than podrun reads", big.display()));
    // In an SSL_CERT_DIR directory too, where a file that holds no certificate is passed over.
    let certs = dir.join("certs");
    fs::create_dir(&certs).unwrap();
    fs::write(certs.join("README"), "not a certificate").unwrap();
    fs::write(certs.join("root.pem"), ROOT).unwrap();
    assert_eq!(roots(None, std::slice::from_ref(&certs), &Cache::default()), Ok(1));
    fs::rename(&big, certs.join("big.pem")).unwrap();
    let e = roots(None, std::slice::from_ref(&certs), &Cache::default()).unwrap_err();
    assert!(e.starts_with(&format!("the CA certificate {}/big.pem: larger than", certs.display())), "{e}");
    // A FIFO in the file's place does not hold podrun.
    let fifo = dir.join("fifo.pem");
    rustix::fs::mknodat(rustix::fs::CWD, &fifo, rustix::fs::FileType::Fifo, rustix::fs::Mode::RUSR, 0).unwrap();
    assert!(read_capped(&fifo, "CA certificate").is_err());
}

#[test]
fn the_files_are_read_again_only_when_they_change() {
    let dir = crate::test_support::TempDir::new("ca-cache");
    let (file, certs) = (dir.join("bundle.pem"), dir.join("certs"));
    fs::write(&file, ROOT).unwrap();
    fs::create_dir(&certs).unwrap();
    fs::write(certs.join("a.pem"), ROOT).unwrap();
    // OpenSSL's hash link to a file of the same directory: that file is read once.
    std::os::unix::fs::symlink("a.pem", certs.join("4042bcee.0")).unwrap();
    let cache = Cache::default();
    let dirs = [certs.clone()];
    assert_eq!(roots(Some(&file), &dirs, &cache), Ok(2));
    // Overwritten in place with the same size and time: taken as unchanged, not read again
    // (the garbage would be refused).
    let time = fs::metadata(&file).unwrap().modified().unwrap();
    fs::write(&file, "x".repeat(ROOT.len())).unwrap();
    fs::File::options().write(true).open(&file).unwrap().set_modified(time).unwrap();
    assert_eq!(roots(Some(&file), &dirs, &cache), Ok(2), "from the cache");
    // Its time changed: read again.
    fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(time + std::time::Duration::from_secs(1))
        .unwrap();
    let e = roots(Some(&file), &dirs, &cache).unwrap_err();
    assert!(e.contains("no PEM certificate in it"), "{e}");
    fs::write(&file, ROOT).unwrap();
    assert_eq!(roots(Some(&file), &dirs, &cache), Ok(2));
    // A file added to the directory: read again.
    fs::write(certs.join("b.pem"), ROOT).unwrap();
    assert_eq!(roots(Some(&file), &dirs, &cache), Ok(3));
    // Nothing at all: no CA.
    assert_eq!(
        roots(None, &[], &Cache::default()),
        Err("no CA certificate given (ca.pem), and no system CA bundle found".into())
    );
}
