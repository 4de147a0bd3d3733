//! Features podrun cannot provide on one host, refused before anything is created so that no
//! pod runs with one of them silently dropped (an isolation, a credential or a volume the
//! manifest counts on). This is the one list of them; the schema marks the same fields `refused` so the
//! walk does not also call them "not implemented yet".
//!
//! Each feature gives one error, at the first place it is used, naming the others. Beyond
//! the fields, a command that reads the variables the kubelet injects for the API server's
//! own Service is refused too: there is no API server on one host.

use super::FieldError;
use crate::manifest::types::Pod;

/// The volume sources podrun cannot provide: storage a kubelet attaches or mounts through the
/// node's tools and plugins (or a cloud's controller), and a git checkout. Without this refusal a
/// pod would run with an empty directory in the volume's place, and what it writes there would
/// be lost with the container. Any other source of the API's `VolumeSource` is implemented or
/// refused as its own feature.
const STORAGE: &[&str] = &[
    "nfs",
    "iscsi",
    "fc",
    "rbd",
    "cephfs",
    "glusterfs",
    "csi",
    "flexVolume",
    "gitRepo",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "azureDisk",
    "azureFile",
    "cinder",
    "vsphereVolume",
    "portworxVolume",
    "photonPersistentDisk",
    "scaleIO",
    "storageos",
    "quobyte",
    "flocker",
];

/// A feature podrun refuses, and why, in words a user can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    ResourceClaims,
    EphemeralVolumes,
    ServiceAccountTokens,
    ClusterTrustBundles,
    PodCertificates,
    /// One of [`STORAGE`], by its field name.
    Storage(&'static str),
    HugePages,
    ClaimSubPaths,
}

impl Feature {
    fn why(self) -> String {
        let why = match self {
            Feature::Storage(source) => return storage_why(source),
            Feature::ResourceClaims => {
                "dynamic resource allocation (resourceClaims) is cluster-only: podrun has no scheduler or \
                 resource driver to allocate the devices"
            }
            Feature::EphemeralVolumes => {
                "ephemeral volumes are not supported by podrun: each is a PersistentVolumeClaim that a cluster's \
                 storage provisioner creates"
            }
            Feature::ServiceAccountTokens => {
                "service account token projections are not supported by podrun: the tokens are issued by a \
                 Kubernetes API server"
            }
            Feature::ClusterTrustBundles => {
                "cluster trust bundle projections are not supported by podrun: the bundles are ClusterTrustBundle \
                 objects of a Kubernetes API server"
            }
            Feature::PodCertificates => {
                "pod certificate projections are not supported by podrun: the certificates are issued through a \
                 Kubernetes API server by a signer"
            }
            Feature::HugePages => {
                "emptyDir volumes of huge pages are not supported by podrun: it mounts no hugetlbfs (a kubelet does, \
                 for the huge pages a pod requests)"
            }
            Feature::ClaimSubPaths => {
                "sub-paths of a persistentVolumeClaim volume are not supported by podrun: the claim is a named \
                 engine volume, and Docker 20.10 cannot mount a sub-path of one"
            }
        };
        why.to_owned()
    }
}

/// Why podrun cannot give a volume of `source`, and what to use instead.
fn storage_why(source: &str) -> String {
    let instead = "mount it on the host and use a hostPath volume of the mounted directory instead";
    match source {
        "nfs" => "nfs volumes are not supported by podrun: it does not mount NFS exports (a kubelet mounts them \
                  with the node's mount.nfs), and the pod would run with an empty directory in the volume's place; \
                  mount the export on the host (mount -t nfs SERVER:/EXPORT /mnt/DIR, or an /etc/fstab line) and \
                  use a hostPath volume of that directory instead"
            .to_owned(),
        "gitRepo" => "gitRepo volumes are not supported by podrun (Kubernetes deprecates them): clone the \
                      repository into an emptyDir volume with an init container instead, as Kubernetes advises"
            .to_owned(),
        "csi" | "flexVolume" => format!(
            "{source} volumes are not supported by podrun: it runs no volume plugin (a kubelet calls the node's \
             {source} driver), and the pod would run with an empty directory in the volume's place; {instead}"
        ),
        _ => format!(
            "{source} volumes are not supported by podrun: it attaches and mounts no storage of its own (a kubelet \
             does, with the node's tools or a cloud's controller), and the pod would run with an empty directory \
             in the volume's place; {instead}"
        ),
    }
}

/// Appends one error per refused feature the pod uses.
pub(super) fn refuse(pod: &Pod, errors: &mut Vec<FieldError>) {
    let mut uses: Vec<(Feature, String)> = Vec::new();
    let spec = &pod.spec;
    if !spec.resource_claims.is_empty() {
        uses.push((Feature::ResourceClaims, "spec.resourceClaims".into()));
    }
    if spec.resources.as_ref().is_some_and(|r| !r.claims.is_empty()) {
        uses.push((Feature::ResourceClaims, "spec.resources.claims".into()));
    }
    let claims: Vec<&str> =
        spec.volumes.iter().filter(|v| v.persistent_volume_claim.is_some()).map(|v| v.name.as_str()).collect();
    let containers = spec.all_containers().map(|(path, c, _)| (path, c));
    for (path, c) in containers {
        if c.resources.as_ref().is_some_and(|r| !r.claims.is_empty()) {
            uses.push((Feature::ResourceClaims, format!("{path}.resources.claims")));
        }
        for (j, m) in c.volume_mounts.iter().enumerate().filter(|(_, m)| claims.contains(&m.name.as_str())) {
            for (field, value) in [("subPath", &m.sub_path), ("subPathExpr", &m.sub_path_expr)] {
                if value.as_deref().is_some_and(|v| !v.is_empty()) {
                    uses.push((Feature::ClaimSubPaths, format!("{path}.volumeMounts[{j}].{field}")));
                }
            }
        }
    }
    let present = |v: &Option<serde_yaml::Value>| v.as_ref().is_some_and(|v| !v.is_null());
    for (i, v) in spec.volumes.iter().enumerate() {
        let path = format!("spec.volumes[{i}]");
        for (field, value) in &v.other_sources {
            if let Some(source) = STORAGE.iter().find(|s| **s == field.as_str()).filter(|_| !value.is_null()) {
                uses.push((Feature::Storage(source), format!("{path}.{field}")));
            }
        }
        let medium = v.empty_dir.as_ref().and_then(|e| e.medium.as_deref()).unwrap_or("");
        if medium == "HugePages" || medium.starts_with("HugePages-") {
            uses.push((Feature::HugePages, format!("{path}.emptyDir.medium")));
        }
        if present(&v.ephemeral) {
            uses.push((Feature::EphemeralVolumes, format!("{path}.ephemeral")));
        }
        for (j, s) in v.projected.iter().flat_map(|p| p.sources.iter().enumerate()) {
            let sp = format!("{path}.projected.sources[{j}]");
            for (feature, field, value) in [
                (Feature::ServiceAccountTokens, "serviceAccountToken", &s.service_account_token),
                (Feature::ClusterTrustBundles, "clusterTrustBundle", &s.cluster_trust_bundle),
                (Feature::PodCertificates, "podCertificate", &s.pod_certificate),
            ] {
                if present(value) {
                    uses.push((feature, format!("{sp}.{field}")));
                }
            }
        }
    }
    let mut reported: Vec<Feature> = Vec::new();
    for (feature, path) in &uses {
        if reported.contains(feature) {
            continue;
        }
        reported.push(*feature);
        let others: Vec<&str> =
            uses.iter().filter(|(f, p)| f == feature && p != path).map(|(_, p)| p.as_str()).collect();
        let also = if others.is_empty() { String::new() } else { format!(" (also used at {})", others.join(", ")) };
        errors.push(FieldError::forbidden(path, &format!("{}{also}", feature.why())));
    }
    refuse_api_service_vars(pod, errors);
}

/// The variables the kubelet sets for the `kubernetes` Service in every pod.
const API_SERVICE_VARS: &[&str] =
    &["KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", "KUBERNETES_PORT", "KUBERNETES_SERVICE_PORT_HTTPS"];

/// Whether `text` names `var` as a whole word (so KUBERNETES_PORT_443_TCP counts as
/// KUBERNETES_PORT only where it is the whole name).
fn names(text: &str, var: &str) -> bool {
    text.match_indices(var).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + var.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

/// Appends an error per container whose command or args read a variable the kubelet injects
/// for the API server's own Service: on one host there is no API server, so the pod would
/// crash-loop instead of being refused with the reason.
fn refuse_api_service_vars(pod: &Pod, errors: &mut Vec<FieldError>) {
    for (path, c, _) in pod.spec.all_containers() {
        // A variable the container sets itself is its own business.
        let own = |v: &str| c.env.iter().any(|e| e.name == v);
        let words =
            c.command.iter().flatten().map(|w| ("command", w)).chain(c.args.iter().flatten().map(|w| ("args", w)));
        for (field, w) in words {
            if let Some(var) = API_SERVICE_VARS.iter().find(|v| names(w, v) && !own(v)) {
                errors.push(FieldError::new(
                    format!("{path}.{field}"),
                    format!(
                        "refers to {var}, which the kubelet sets for the Kubernetes API server's Service; \
                         that exists only on a cluster, so podrun cannot provide it"
                    ),
                ));
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::manifest::{load, LoadOptions, ManifestError, Source};

    /// Every refused feature, from YAML (so the types really carry it), each refused once, with
    /// its path and its reason, and no "not implemented" warning beside it.
    #[test]
    fn every_refused_feature_is_named_once_with_its_path() {
        let yaml = r#"
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  resourceClaims: [{name: gpu, resourceClaimName: c}]
  initContainers:
  - name: side
    image: busybox
    restartPolicy: Always
  containers:
  - name: a
    image: busybox
    resources: {claims: [{name: gpu}]}
    volumeMounts: [{name: img, mountPath: /img}]
  volumes:
  - name: img
    image: {reference: alpine, pullPolicy: IfNotPresent}
  - name: eph
    ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce]}}}
  - name: all
    projected:
      sources:
      - serviceAccountToken: {audience: api, expirationSeconds: 3600, path: token}
      - clusterTrustBundle: {name: example, path: roots.pem}
      - podCertificate: {keyType: ED25519, signerName: s/x, credentialBundlePath: b.pem}
"#;
        let e = load(&Source::from_text("p.yaml", yaml), &LoadOptions::default()).unwrap_err();
        let ManifestError::Invalid { problems, .. } = &e else { panic!("{e}") };
        let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        let expect = [
            ("spec.resourceClaims", "dynamic resource allocation (resourceClaims) is cluster-only"),
            ("spec.volumes[1].ephemeral", "ephemeral volumes are not supported by podrun"),
            ("spec.volumes[2].projected.sources[0].serviceAccountToken", "service account token projections"),
            ("spec.volumes[2].projected.sources[1].clusterTrustBundle", "cluster trust bundle projections"),
            ("spec.volumes[2].projected.sources[2].podCertificate", "pod certificate projections"),
        ];
        assert_eq!(lines.len(), expect.len(), "{lines:#?}");
        for (line, (path, why)) in lines.iter().zip(expect) {
            assert!(line.starts_with(&format!("{path}: Forbidden: ")) && line.contains(why), "{line}");
        }
        assert!(lines[0].ends_with("(also used at spec.containers[0].resources.claims)"), "{}", lines[0]);
    }

    /// Every volume source of the API that podrun cannot provide, each refused at its path with
    /// what to do instead; none is left out in silence (the pod would run without it).
    #[test]
    fn storage_volumes_are_refused_with_what_to_use_instead() {
        for (source, body, says) in [
            ("nfs", "{server: nas.example.com, path: /exports/data}", "mount -t nfs SERVER:/EXPORT /mnt/DIR"),
            ("iscsi", "{targetPortal: 10.0.0.1:3260, iqn: iqn.2001-04.com.example:storage, lun: 0}", "hostPath"),
            ("csi", "{driver: csi.example.com}", "it runs no volume plugin"),
            ("flexVolume", "{driver: example/lvm}", "it runs no volume plugin"),
            ("gitRepo", "{repository: https://example.com/r.git}", "clone the repository into an emptyDir"),
            ("awsElasticBlockStore", "{volumeID: vol-1}", "attaches and mounts no storage"),
            ("cephfs", "{monitors: [10.0.0.1:6789]}", "a hostPath volume of the mounted directory"),
        ] {
            let yaml = format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers: [{{name: a, image: b, \
                 volumeMounts: [{{name: v, mountPath: /v}}]}}]\n  volumes:\n  - {{name: ok, emptyDir: {{}}}}\n  \
                 - {{name: v, {source}: {body}}}\n  - {{name: w, {source}: {body}}}\n"
            );
            let e = load(&Source::from_text("p.yaml", &yaml), &LoadOptions::default()).unwrap_err();
            let ManifestError::Invalid { problems, .. } = &e else { panic!("{source}: {e}") };
            assert_eq!(problems.len(), 1, "{source}: one error for the feature: {problems:#?}");
            let line = problems[0].to_string();
            assert!(
                line.starts_with(&format!(
                    "spec.volumes[1].{source}: Forbidden: {source} volumes are not supported by podrun"
                )),
                "{line}"
            );
            assert!(
                line.contains(says) && line.ends_with(&format!("(also used at spec.volumes[2].{source})")),
                "{line}"
            );
        }
        let nulls = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b}]\n  \
                     volumes: [{name: v, nfs: null}]\n";
        let l = load(&Source::from_text("p.yaml", nulls), &LoadOptions::default()).unwrap();
        assert!(l.pods[0].pod.spec.volumes[0].empty_dir.is_some(), "a null source is none: an emptyDir");
    }

    #[test]
    fn huge_pages_and_sub_paths_of_claims_are_refused_as_the_volume_planner_would() {
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    image: b\n    \
                    volumeMounts: [{name: data, mountPath: /d, subPath: x}, {name: data, mountPath: /e, subPathExpr: $(X)}, \
                    {name: tmp, mountPath: /t, subPath: y}]\n  volumes:\n  - {name: data, persistentVolumeClaim: {claimName: d}}\n  \
                    - {name: tmp, emptyDir: {}}\n  - {name: hp, emptyDir: {medium: HugePages-2Mi}}\n";
        let e = load(&Source::from_text("p.yaml", yaml), &LoadOptions::default()).unwrap_err();
        let ManifestError::Invalid { problems, .. } = &e else { panic!("{e}") };
        let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(
            lines[0].starts_with(
                "spec.containers[0].volumeMounts[0].subPath: Forbidden: sub-paths of a \
                                      persistentVolumeClaim volume are not supported by podrun"
            ),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with("(also used at spec.containers[0].volumeMounts[1].subPathExpr)"), "{}", lines[0]);
        assert!(lines[1].starts_with("spec.volumes[2].emptyDir.medium: Forbidden: emptyDir volumes of huge pages"));
        for medium in ["HugePages", "HugePages-1Gi"] {
            let one = yaml
                .replace("HugePages-2Mi", medium)
                .replace("subPath: x", "readOnly: true")
                .replace(", subPathExpr: $(X)", "");
            let e = load(&Source::from_text("p.yaml", &one), &LoadOptions::default()).unwrap_err();
            assert!(e.to_string().contains("emptyDir volumes of huge pages"), "{medium}: {e}");
        }
    }

    #[test]
    fn every_storage_source_is_a_volume_source_of_the_schema() {
        let walk = |source: &str| {
            let doc: serde_yaml::Value =
                serde_yaml::from_str(&format!("spec: {{volumes: [{{name: v, {source}: {{}}}}]}}")).unwrap();
            crate::manifest::schema::check_pod(&doc)
        };
        for source in super::STORAGE {
            assert_eq!(walk(source), [], "{source}: known to the schema, refused here, nothing else said");
        }
        assert!(!walk("nfsx").is_empty(), "the check can tell");
    }

    #[test]
    fn harmless_values_are_not_refused() {
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostUsers: true\n  resourceClaims: []\n  \
                    containers: [{name: a, image: b, resources: {claims: []}, restartPolicyRules: []}]\n  \
                    volumes: [{name: m, hostPath: {path: /mnt}}]\n";
        let loaded = load(&Source::from_text("p.yaml", yaml), &LoadOptions::default()).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    }

    mod api_service {
        use super::super::*;
        use crate::manifest::types::{Container, EnvVar};

        fn api_service(pod: &Pod) -> Vec<FieldError> {
            let mut errors = Vec::new();
            refuse_api_service_vars(pod, &mut errors);
            errors
        }

        fn pod(args: &[&str], env: &[&str]) -> Pod {
            let mut p = Pod::default();
            p.spec.containers.push(Container {
                name: "c".into(),
                args: Some(args.iter().map(|s| s.to_string()).collect()),
                env: env
                    .iter()
                    .map(|n| EnvVar { name: n.to_string(), value: Some("x".into()), ..Default::default() })
                    .collect(),
                ..Default::default()
            });
            p
        }

        #[test]
        fn references_to_the_api_service_are_refused() {
            let errs = api_service(&pod(&["HOSTNAME", "KUBERNETES_PORT"], &[]));
            assert_eq!(errs.len(), 1);
            assert_eq!(errs[0].path, "spec.containers[0].args");
            assert!(errs[0].message.contains("KUBERNETES_PORT"));
            assert_eq!(api_service(&pod(&["echo $KUBERNETES_SERVICE_HOST"], &[])).len(), 1);
        }

        #[test]
        fn other_words_and_own_variables_are_fine() {
            assert!(api_service(&pod(&["MY_KUBERNETES_PORT", "KUBERNETES_PORTS"], &[])).is_empty());
            assert!(api_service(&pod(&["KUBERNETES_PORT"], &["KUBERNETES_PORT"])).is_empty());
        }
    }
}
