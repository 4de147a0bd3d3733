//! Whether the engine is rootless, read from its `/info`. Docker says so in the compatible
//! `/info` (`SecurityOptions` holds `name=rootless`); Podman (4.3) does not say it there, only in
//! its own `/libpod/info` (`host.security.rootless`), which also gives its user namespace's id
//! mappings and the cgroup version.

use bollard::models::{SystemInfo, SystemInfoCgroupVersionEnum};
use serde_json::Value;

use crate::runtime::EngineSecurity;

/// Docker Engine's `/info`.
pub fn of_docker(info: &SystemInfo) -> EngineSecurity {
    let rootless = info.security_options.iter().flatten().any(|o| o.split(',').any(|kv| kv == "name=rootless"));
    let cgroup_version = match info.cgroup_version {
        Some(SystemInfoCgroupVersionEnum::_1) => Some(1),
        Some(SystemInfoCgroupVersionEnum::_2) => Some(2),
        _ => None,
    };
    // Docker does not show its id mappings; /etc/subuid gives at least 65536 by convention.
    EngineSecurity { rootless, cgroup_version, uids: None, gids: None }
}

/// Podman's `/libpod/info`.
pub fn of_podman(info: &Value) -> EngineSecurity {
    let host = &info["host"];
    let cgroup_version = match host["cgroupVersion"].as_str() {
        Some("v1") => Some(1),
        Some("v2") => Some(2),
        _ => None,
    };
    let rootless = host["security"]["rootless"].as_bool().unwrap_or(false);
    let ids = |map: &str| rootless.then(|| mapped(&host["idMappings"][map])).flatten();
    EngineSecurity { rootless, cgroup_version, uids: ids("uidmap"), gids: ids("gidmap") }
}

/// How many ids from 0 up a mapping (`[{container_id, host_id, size}]`) covers without a gap.
fn mapped(map: &Value) -> Option<u64> {
    let mut ranges: Vec<(u64, u64)> =
        map.as_array()?.iter().filter_map(|r| Some((r["container_id"].as_u64()?, r["size"].as_u64()?))).collect();
    ranges.sort_unstable();
    let mut next = 0;
    for (start, size) in ranges {
        if start > next {
            break;
        }
        next = next.max(start.saturating_add(size));
    }
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn podman_says_it_in_libpod_info() {
        // As Podman 4.3 answers for a user with two subordinate ranges, on cgroup v1.
        let info = serde_json::json!({"host": {
            "cgroupVersion": "v1",
            "security": {"rootless": true, "seccompEnabled": true},
            "idMappings": {
                "uidmap": [{"container_id": 0, "host_id": 1001, "size": 1},
                           {"container_id": 1, "host_id": 100000, "size": 65536},
                           {"container_id": 65537, "host_id": 200000, "size": 65536}],
                "gidmap": [{"container_id": 0, "host_id": 1001, "size": 1},
                           {"container_id": 1, "host_id": 100000, "size": 65536}]}}});
        let sec = of_podman(&info);
        assert_eq!(
            sec,
            EngineSecurity { rootless: true, cgroup_version: Some(1), uids: Some(131_073), gids: Some(65537) }
        );
        // Root's Podman: no mappings.
        let info = serde_json::json!({"host": {"cgroupVersion": "v2", "security": {"rootless": false},
            "idMappings": {"uidmap": null, "gidmap": null}}});
        assert_eq!(of_podman(&info), EngineSecurity { cgroup_version: Some(2), ..EngineSecurity::default() });
        assert_eq!(of_podman(&serde_json::json!({})), EngineSecurity::default());
    }

    #[test]
    fn a_gap_in_the_mapping_ends_it() {
        let map = serde_json::json!([{"container_id": 0, "size": 1}, {"container_id": 5, "size": 10}]);
        assert_eq!(mapped(&map), Some(1));
        assert_eq!(mapped(&serde_json::json!([])), Some(0));
    }

    #[test]
    fn docker_says_it_in_its_security_options() {
        let info = SystemInfo {
            security_options: Some(vec!["name=seccomp,profile=builtin".into(), "name=rootless".into()]),
            cgroup_version: Some(SystemInfoCgroupVersionEnum::_2),
            ..SystemInfo::default()
        };
        assert_eq!(
            of_docker(&info),
            EngineSecurity { rootless: true, cgroup_version: Some(2), uids: None, gids: None }
        );
        let info = SystemInfo {
            security_options: Some(vec!["name=seccomp,profile=default".into()]),
            cgroup_version: Some(SystemInfoCgroupVersionEnum::_1),
            ..SystemInfo::default()
        };
        assert_eq!(of_docker(&info), EngineSecurity { cgroup_version: Some(1), ..EngineSecurity::default() });
    }
}
