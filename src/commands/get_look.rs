//! What `podrun get` looks at, once or at each turn of `-w`: the engine's containers, as pods,
//! those named (or every one) whose labels the selector selects, each with its record.

use crate::manifest::types::LabelSelector;
use crate::pod::files::PodFiles;
use crate::runtime::engine::Engine;
use crate::runtime::{ContainerRuntime, Selector};
use crate::status::engine_pods::{self, ListedPod};

/// What `get` looks at: the engine's containers `sel` selects, as pods, those `names` names
/// (or every one) whose labels `selector` selects.
pub struct Look {
    pub sel: Selector,
    pub files: Option<PodFiles>,
    pub names: Vec<String>,
    pub selector: Option<LabelSelector>,
}

impl Look {
    /// The pods found, the names not found, and the line saying what another state
    /// directory's pods are not shown.
    pub async fn pods(&self, rt: &Engine) -> anyhow::Result<(Vec<ListedPod>, Vec<String>, Option<String>)> {
        let observed = rt.list(&self.sel).await?;
        let foreign = crate::status::unverified_summary::unverified_summary(&observed, &PodFiles::default_root());
        let mut pods = engine_pods::group(observed);
        if let Some(sel) = &self.selector {
            pods.retain(|p| sel.matches(&crate::status::pod_object::labels(p)) == Some(true));
        }
        let (pods, missing) = named(pods, &self.names);
        Ok((pods.into_iter().map(|p| p.with_files(self.files.as_ref())).collect(), missing, foreign))
    }
}

/// The pods `names` asks for, in its order, and the names of those not found; every pod when
/// `names` is empty. An earlier pod of the same name may linger beside the current one: the
/// newest stands for the name, as for logs and exec.
fn named(pods: Vec<ListedPod>, names: &[String]) -> (Vec<ListedPod>, Vec<String>) {
    if names.is_empty() {
        return (pods, Vec::new());
    }
    let (mut found, mut missing) = (Vec::new(), Vec::new());
    for name in names {
        match pods.iter().filter(|p| &p.name == name).max_by(|a, b| a.started_at().cmp(&b.started_at())) {
            Some(p) => found.push(p.clone()),
            None => missing.push(name.clone()),
        }
    }
    (found, missing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::labels;
    use crate::runtime::{Observed, State};
    use crate::status::pod_object::pod_object;

    fn infra_of(ns: &str, name: &str, uid: &str, started: &str) -> Observed {
        let labels = [
            (labels::MANAGED, labels::MANAGED_VALUE),
            (labels::POD_NAMESPACE, ns),
            (labels::POD_NAME, name),
            (labels::POD_UID, uid),
            (labels::CONTAINER_NAME, "POD"),
            (labels::ROLE, "infra"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        Observed {
            id: format!("i-{uid}"),
            name: format!("podrun_{ns}_{name}_POD_0"),
            labels,
            image: "podrun-infra".into(),
            image_id: String::new(),
            state: State::Running { started_at: Some(started.into()) },
            ip: Some("10.0.0.2".into()),
            gateway: None,
            sealed: true,
            scheme: crate::runtime::IdScheme::default(),
        }
    }

    #[test]
    fn named_pods_come_in_the_order_asked_with_the_missing_ones_apart() {
        let pods = engine_pods::group(vec![
            infra_of("ns", "a", "u1", "2024-01-01T00:00:00Z"),
            infra_of("ns", "b", "u2", "2024-01-01T00:00:00Z"),
            infra_of("ns", "b", "u3", "2024-01-02T00:00:00Z"),
        ]);
        let (found, missing) = named(pods.clone(), &["b".into(), "zz".into(), "a".into()]);
        assert_eq!(
            found.iter().map(|p| (p.name.as_str(), p.uid.as_str())).collect::<Vec<_>>(),
            [("b", "u3"), ("a", "u1")]
        );
        assert_eq!(missing, ["zz"]);
        let (all, none) = named(pods, &[]);
        assert_eq!((all.len(), none.len()), (3, 0));
        assert_eq!(pod_object(&found[0])["kind"], "Pod");
        assert_eq!(pod_object(&found[0])["metadata"]["name"], "b");
    }
}
