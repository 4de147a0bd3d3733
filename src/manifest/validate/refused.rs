//! Features podrun cannot provide on one host, refused before anything is created so that no
//! pod runs with one of them silently dropped (an isolation or a credential the manifest
//! counts on). This is the one list of them; the schema marks the same fields `refused` so the
//! walk does not also call them "not implemented yet".
//!
//! Each feature gives one error, at the first place it is used, naming the others.

use super::FieldError;
use crate::manifest::types::Pod;

/// A feature podrun refuses, and why, in words a user can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Feature {
    UserNamespaces,
    ResourceClaims,
    RestartPolicyRules,
    ImageVolumes,
    EphemeralVolumes,
    ServiceAccountTokens,
    ClusterTrustBundles,
    PodCertificates,
}

impl Feature {
    fn why(self) -> &'static str {
        match self {
            Feature::UserNamespaces => {
                "user namespaces (hostUsers: false) are not supported by podrun: the pod would run without one"
            }
            Feature::ResourceClaims => {
                "dynamic resource allocation (resourceClaims) is cluster-only: podrun has no scheduler or \
                 resource driver to allocate the devices"
            }
            Feature::RestartPolicyRules => {
                "restartPolicyRules (a Kubernetes 1.34+ alpha feature) are not implemented by podrun"
            }
            Feature::ImageVolumes => {
                "image volumes are not supported by podrun: the Docker 20.10 engine cannot mount an image as a volume"
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
        }
    }
}

/// Appends one error per refused feature the pod uses.
pub(super) fn refuse(pod: &Pod, errors: &mut Vec<FieldError>) {
    let mut uses: Vec<(Feature, String)> = Vec::new();
    let spec = &pod.spec;
    if spec.host_users == Some(false) {
        uses.push((Feature::UserNamespaces, "spec.hostUsers".into()));
    }
    if !spec.resource_claims.is_empty() {
        uses.push((Feature::ResourceClaims, "spec.resourceClaims".into()));
    }
    if spec.resources.as_ref().is_some_and(|r| !r.claims.is_empty()) {
        uses.push((Feature::ResourceClaims, "spec.resources.claims".into()));
    }
    let containers = spec.all_containers().map(|(path, c, _)| (path, c));
    for (path, c) in containers {
        if c.resources.as_ref().is_some_and(|r| !r.claims.is_empty()) {
            uses.push((Feature::ResourceClaims, format!("{path}.resources.claims")));
        }
        if !c.restart_policy_rules.is_empty() {
            uses.push((Feature::RestartPolicyRules, format!("{path}.restartPolicyRules")));
        }
    }
    let present = |v: &Option<serde_yaml::Value>| v.as_ref().is_some_and(|v| !v.is_null());
    for (i, v) in spec.volumes.iter().enumerate() {
        let path = format!("spec.volumes[{i}]");
        if v.image.is_some() {
            uses.push((Feature::ImageVolumes, format!("{path}.image")));
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
  hostUsers: false
  resourceClaims: [{name: gpu, resourceClaimName: c}]
  initContainers:
  - name: side
    image: busybox
    restartPolicy: Always
    restartPolicyRules: [{action: RestartAllContainers, onExit: {exitCodes: {operator: In, values: [88]}}}]
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
            ("spec.hostUsers", "user namespaces (hostUsers: false) are not supported by podrun"),
            ("spec.resourceClaims", "dynamic resource allocation (resourceClaims) is cluster-only"),
            ("spec.initContainers[0].restartPolicyRules", "restartPolicyRules (a Kubernetes 1.34+ alpha feature)"),
            ("spec.volumes[0].image", "the Docker 20.10 engine cannot mount an image as a volume"),
            ("spec.volumes[1].ephemeral", "ephemeral volumes are not supported by podrun"),
            ("spec.volumes[2].projected.sources[0].serviceAccountToken", "service account token projections"),
            ("spec.volumes[2].projected.sources[1].clusterTrustBundle", "cluster trust bundle projections"),
            ("spec.volumes[2].projected.sources[2].podCertificate", "pod certificate projections"),
        ];
        assert_eq!(lines.len(), expect.len(), "{lines:#?}");
        for (line, (path, why)) in lines.iter().zip(expect) {
            assert!(line.starts_with(&format!("{path}: Forbidden: ")) && line.contains(why), "{line}");
        }
        assert!(lines[1].ends_with("(also used at spec.containers[0].resources.claims)"), "{}", lines[1]);
    }

    #[test]
    fn harmless_values_are_not_refused() {
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostUsers: true\n  resourceClaims: []\n  \
                    containers: [{name: a, image: b, resources: {claims: []}, restartPolicyRules: []}]\n  \
                    volumes: [{name: m, hostPath: {path: /mnt}}]\n";
        let loaded = load(&Source::from_text("p.yaml", yaml), &LoadOptions::default()).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    }
}
