//! A static pod directory as `apply --supervise` reads it, as a kubelet reads its own: a
//! manifest that does not load (half-written, unreadable, invalid), or whose pod cannot be
//! prepared here, is left out and said, and the other manifests run. One-shot `apply` stays
//! all or nothing (`manifests::load`, `prepare::prepare_pods`): nothing is created if anything
//! is wrong, as CI wants.

use std::collections::BTreeSet;

use crate::manifest::{self, LoadOptions, Loaded, LoadedPod, ManifestError, Source};
use crate::pod::prepare::{self, Environment, PrepareError};
use crate::pod::DesiredPod;

use super::remote::read_source;

/// Why a manifest file was left out.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    #[error("it does not load")]
    Load(#[source] ManifestError),
    #[error("its pod cannot run here")]
    Prepare(#[source] PrepareError),
}

/// A manifest file left out, and why.
#[derive(Debug)]
pub struct Skipped {
    pub file: String,
    pub why: Unusable,
}

impl Skipped {
    /// The line that says it: the error names the file and the place in it.
    pub fn describe(&self) -> String {
        let cause = match &self.why {
            Unusable::Load(e) => crate::error_chain::chain(e),
            Unusable::Prepare(e) => crate::error_chain::chain(e),
        };
        format!("{}: skipped until it changes ({}): {cause}", crate::escape::Escaped(&self.file), self.why)
    }
}

/// Loads each of `files` with the `--config` files, leaving out those that do not load, or
/// that clash with an earlier one (a Pod both define). An unreadable or invalid `--config`
/// file is the load's error: every pod may depend on it.
pub fn load_each(
    files: &[String],
    configs: &[String],
    opts: &LoadOptions,
) -> Result<(Loaded, Vec<Skipped>), ManifestError> {
    let config_sources = configs.iter().map(|p| read_source(p)).collect::<Result<Vec<_>, _>>()?;
    let mut good = Vec::new();
    let mut skipped = Vec::new();
    for f in files {
        match read_source(f).and_then(|s| alone(&s, &config_sources, opts).map(|()| s)) {
            Ok(s) => good.push(s),
            Err(e) => skipped.push(Skipped { file: f.clone(), why: Unusable::Load(e) }),
        }
    }
    match together(&good, &config_sources, opts) {
        Ok(loaded) => return Ok((loaded, skipped)),
        Err(e) if good.len() <= 1 => return Err(e),
        Err(_) => {}
    }
    // Files that load alone but not together: one by one, in order, so the first keeps its pod.
    let mut kept: Vec<Source> = Vec::new();
    for s in good {
        kept.push(s);
        if let Err(e) = together(&kept, &config_sources, opts) {
            let s = kept.pop().unwrap_or_else(|| unreachable!("just pushed"));
            skipped.push(Skipped { file: s.name, why: Unusable::Load(e) });
        }
    }
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    Ok((together(&kept, &config_sources, opts)?, skipped))
}

/// Whether `s` loads on its own with the `--config` files (but `s`'s own last version, when
/// it is one of them): a new answer of a URL source must, to replace the last good one
/// (`remote::refresh`).
///
/// # Errors
/// Why it does not (or a `--config` file that does not load).
pub fn loads(s: &Source, configs: &[String], opts: &LoadOptions) -> Result<(), ManifestError> {
    // A `--config` URL's new answer replaces its last good one: it is checked against the
    // other sources, not against its own old version (which defines the same objects).
    let others = configs.iter().filter(|p| super::remote::address::shown(p) != s.name);
    let config_sources = others.map(|p| read_source(p)).collect::<Result<Vec<_>, _>>()?;
    alone(s, &config_sources, opts)
}

/// Whether `s` loads on its own. A file without a Pod is fine when it holds other objects (the
/// ConfigMaps of other files' pods); one with nothing at all is a manifest being written.
fn alone(s: &Source, configs: &[Source], opts: &LoadOptions) -> Result<(), ManifestError> {
    match manifest::load_all(std::slice::from_ref(s), configs, opts) {
        Err(ManifestError::NoPod { .. }) if has_content(&s.text) => Ok(()),
        r => r.map(drop),
    }
}

fn together(sources: &[Source], configs: &[Source], opts: &LoadOptions) -> Result<Loaded, ManifestError> {
    match manifest::load_all(sources, configs, opts) {
        // Only files of ConfigMaps and Secrets, or none: nothing to run yet.
        Err(ManifestError::NoPod { .. }) => Ok(Loaded::default()),
        r => r,
    }
}

/// Whether YAML text holds anything beside blank lines, comments and document markers.
fn has_content(text: &str) -> bool {
    text.lines().map(str::trim).any(|l| !(l.is_empty() || l.starts_with('#') || l == "---" || l == "..."))
}

/// Prepares each pod of `loaded`; a file with a pod that cannot run here is left out whole,
/// so a manifest runs as written or not at all.
pub fn prepare_each(
    loaded: &[LoadedPod],
    env: &Environment,
    warn: &mut dyn FnMut(String),
) -> (Vec<DesiredPod>, Vec<Skipped>) {
    let mut pods = Vec::new();
    let mut skipped: Vec<Skipped> = Vec::new();
    for p in loaded {
        match prepare::prepare_pods(std::slice::from_ref(p), env, warn) {
            Ok(d) => pods.extend(d.into_iter().map(|d| (p.doc.file.clone(), d))),
            Err(e) if !skipped.iter().any(|s| s.file == p.doc.file) => {
                skipped.push(Skipped { file: p.doc.file.clone(), why: Unusable::Prepare(e) });
            }
            Err(_) => {}
        }
    }
    let bad: BTreeSet<&str> = skipped.iter().map(|s| s.file.as_str()).collect();
    let pods = pods.into_iter().filter(|(f, _)| !bad.contains(f.as_str())).map(|(_, d)| d).collect();
    (pods, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    const POD: &str =
        "apiVersion: v1\nkind: Pod\nmetadata: {name: NAME}\nspec:\n  containers: [{name: c, image: busybox}]\n";

    fn files(dir: &std::path::Path, named: &[(&str, &str)]) -> Vec<String> {
        named
            .iter()
            .map(|(n, text)| {
                let p = dir.join(n);
                std::fs::write(&p, text).unwrap();
                p.to_str().unwrap().to_owned()
            })
            .collect()
    }

    #[test]
    fn a_file_that_does_not_load_is_left_out_and_the_others_load() {
        let dir = crate::test_support::TempDir::new("static-dir");
        let fs = files(
            &dir,
            &[
                ("a.yaml", &POD.replace("NAME", "a")),
                (
                    "b.yaml",
                    "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  containers:\n  - name: c\n    ima",
                ),
                ("c.yaml", ""),
                ("d.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {k: v}\n"),
                ("e.yaml", &POD.replace("NAME", "a")),
            ],
        );
        let (loaded, skipped) = load_each(&fs, &[], &LoadOptions::default()).unwrap();
        let names: Vec<&str> = loaded.pods.iter().map(LoadedPod::name).collect();
        assert_eq!(names, ["a"]);
        let left: Vec<&str> = skipped.iter().map(|s| s.file.rsplit('/').next().unwrap()).collect();
        assert_eq!(left, ["b.yaml", "c.yaml", "e.yaml"], "{skipped:?}");
        let said = skipped[0].describe();
        assert!(
            said.contains("b.yaml: skipped until it changes (it does not load): ") && said.contains("b.yaml:"),
            "{said}"
        );
        assert!(matches!(skipped[2].why, Unusable::Load(ManifestError::Duplicate { .. })), "{skipped:?}");
        assert!(loaded.configs.config_map("default", "cm").is_some(), "a file of ConfigMaps loads");
    }

    #[test]
    fn nothing_loadable_is_no_pod_and_not_an_error() {
        let dir = crate::test_support::TempDir::new("static-dir-none");
        let fs = files(&dir, &[("a.yaml", "# being written\n---\n")]);
        let (loaded, skipped) = load_each(&fs, &[], &LoadOptions::default()).unwrap();
        assert!(loaded.pods.is_empty());
        assert_eq!(skipped.len(), 1);
        assert!(load_each(&[], &["/nonexistent/config.yaml".into()], &LoadOptions::default()).is_err());
    }

    #[test]
    fn content_is_anything_but_blank_lines_comments_and_markers() {
        assert!(!has_content(""));
        assert!(!has_content("# x\n---\n  \n...\n"));
        assert!(has_content("kind: ConfigMap\n"));
    }
}
