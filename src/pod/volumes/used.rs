//! Which of a pod's volumes its containers use, as the kubelet's volume manager decides which
//! to set up: only a volume some container (init, sidecar or app) mounts. The kubelet's
//! desired state of the world skips every other volume (`Skipping unused volume`): it is
//! neither made (no emptyDir directory, no configMap files, no claim, no hostPath created)
//! nor checked (a hostPath's type, a missing ConfigMap), while validation still checks it as
//! the API server does.
//!
//! podrun also keeps an emptyDir a container's `env` reads a file from (`fileKeyRef`): it reads
//! that file from the volume's directory, which must then be there. (`volumeDevices`, the
//! kubelet's other use, is a field podrun does not implement.)

use std::collections::BTreeSet;

use crate::manifest::types::PodSpec;

/// The names of the volumes the pod's containers use.
pub fn used_volumes(spec: &PodSpec) -> BTreeSet<&str> {
    let mut used = BTreeSet::new();
    for (_, c, _) in spec.all_containers() {
        used.extend(c.volume_mounts.iter().map(|m| m.name.as_str()));
        let env_files = c.env.iter().filter_map(|e| e.value_from.as_ref()?.file_key_ref.as_ref());
        used.extend(env_files.map(|f| f.volume_name.as_str()));
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::types::Pod;

    #[test]
    fn mounted_volumes_and_env_file_volumes_are_used_and_no_other() {
        let pod: Pod = serde_yaml::from_str(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes: [{name: a, emptyDir: {}}, \
             {name: b, emptyDir: {}}, {name: c, emptyDir: {}}, {name: d, emptyDir: {}}, {name: e, hostPath: \
             {path: /nowhere, type: Directory}}]\n  initContainers:\n  - {name: i, image: x, volumeMounts: \
             [{name: a, mountPath: /a}]}\n  - {name: s, image: x, restartPolicy: Always, volumeMounts: [{name: b, \
             mountPath: /b}]}\n  containers:\n  - name: c\n    image: x\n    env: [{name: V, valueFrom: \
             {fileKeyRef: {volumeName: c, path: f, key: k}}}]\n",
        )
        .unwrap();
        assert_eq!(used_volumes(&pod.spec), BTreeSet::from(["a", "b", "c"]));
    }
}
