//! The printers on Pod objects and Lists shaped as `get` makes them.

use serde_json::{json, Value};

use super::natural::{natural, quantity};
use super::sort::sort_items;
use super::{Printer, PrinterError};

fn pod(name: &str, phase: &str, restarts: Option<i64>) -> Value {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "ns", "labels": {"app": "web"}},
        "spec": {"containers": [{"name": "app", "image": "busybox"}, {"name": "side", "image": "alpine"}]},
        "status": {"phase": phase},
    });
    if let Some(r) = restarts {
        p["status"]["containerStatuses"] = json!([{"name": "app", "restartCount": r}]);
    }
    p
}

fn list(items: Vec<Value>) -> Value {
    json!({"apiVersion": "v1", "kind": "List", "items": items, "metadata": {"resourceVersion": ""}})
}

fn printed(p: &Printer, v: &Value) -> String {
    p.print(v, true).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn name_prints_kind_slash_name_for_each() {
    assert_eq!(printed(&Printer::Name, &pod("web", "Running", None)), "pod/web\n");
    let l = list(vec![pod("a", "Running", None), pod("b", "Pending", None)]);
    assert_eq!(printed(&Printer::Name, &l), "pod/a\npod/b\n");
    assert_eq!(printed(&Printer::Name, &list(Vec::new())), "");
}

#[test]
fn jsonpath_runs_on_the_pod_or_the_list() {
    let one = Printer::json_path("{.metadata.name}").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&one, &pod("web", "Running", None)), "web");
    let l = list(vec![pod("a", "Running", None), pod("b", "Succeeded", None)]);
    let names = Printer::json_path("{.items[*].metadata.name}").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&names, &l), "a b");
    let range = Printer::json_path(r#"{range .items[*]}{.metadata.name}{"\t"}{.status.phase}{"\n"}{end}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&range, &l), "a\tRunning\nb\tSucceeded\n");
    let filter = Printer::json_path(r#"{.spec.containers[?(@.name=="side")].image}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&filter, &pod("web", "Running", None)), "alpine");
    // Missing keys print nothing, as kubectl's default --allow-missing-template-keys.
    let missing = Printer::json_path("{.status.podIP}").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&missing, &pod("web", "Running", None)), "");
}

#[test]
fn jsonpath_errors_are_kubectls() {
    assert_eq!(Printer::json_path("").map(|_| ()), Err(PrinterError::NoTemplate));
    let e = Printer::json_path("{.metadata.name").map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(e, Err("error parsing jsonpath {.metadata.name, unclosed action".to_owned()));
    let p = Printer::json_path("{.spec.containers[5]}").unwrap_or_else(|e| panic!("{e}"));
    let e = p.print(&pod("web", "Running", None), true).map_err(|e| e.to_string());
    assert_eq!(
        e,
        Err("error executing jsonpath \"{.spec.containers[5]}\": Error executing template: array index out of bounds: index 5, length 2".to_owned())
    );
}

#[test]
fn custom_columns_are_aligned_as_kubectls_tabwriter() {
    let p = Printer::custom_columns(
        "NAME:.metadata.name,PHASE:{.status.phase},IMAGES:spec.containers[*].image,IP:.status.podIP",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let l = list(vec![pod("a", "Running", None), pod("bbbbbbbb", "Pending", None)]);
    assert_eq!(
        printed(&p, &l),
        "NAME       PHASE     IMAGES           IP\n\
         a          Running   busybox,alpine   <none>\n\
         bbbbbbbb   Pending   busybox,alpine   <none>\n"
    );
    assert_eq!(p.print(&l, false).unwrap_or_default().lines().count(), 2);
    // A map's value prints as Go's %v does.
    let labels = Printer::custom_columns("L:.metadata.labels").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&labels, &pod("a", "Running", None)), "L\nmap[app:web]\n");
    let file =
        Printer::custom_columns_file("NAME  PHASE\n.metadata.name .status.phase\n").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(printed(&file, &pod("a", "Running", None)), "NAME   PHASE\na      Running\n");
}

#[test]
fn custom_columns_errors_are_kubectls() {
    let e = |r: Result<Printer, PrinterError>| r.map(|_| ()).map_err(|e| e.to_string());
    assert_eq!(
        e(Printer::custom_columns("")),
        Err("custom-columns format specified but no custom columns given".into())
    );
    assert_eq!(
        e(Printer::custom_columns("NAME")),
        Err("unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>".into())
    );
    assert!(e(Printer::custom_columns("N:{.a")).is_err_and(|m| m.starts_with("unexpected path string")));
    assert_eq!(
        e(Printer::custom_columns_file("A B\n.a\n")),
        Err("number of headers (2) and field specifications (1) don't match".into())
    );
    assert!(e(Printer::custom_columns_file("A\n")).is_err_and(|m| m.contains("missing spec line")));
}

fn names(v: &Value) -> Vec<&str> {
    v["items"].as_array().into_iter().flatten().filter_map(|i| i["metadata"]["name"].as_str()).collect()
}

#[test]
fn sort_by_orders_as_kubectl() {
    let mut l =
        list(vec![pod("pod10", "Running", Some(3)), pod("pod2", "Pending", None), pod("pod1", "Failed", Some(0))]);
    assert_eq!(sort_items(&mut l, ".metadata.name"), Ok(vec![2, 1, 0]));
    assert_eq!(names(&l), ["pod1", "pod2", "pod10"]);
    // Items without the field come first; numbers by value.
    assert_eq!(sort_items(&mut l, "{.status.containerStatuses[0].restartCount}"), Ok(vec![1, 0, 2]));
    assert_eq!(names(&l), ["pod2", "pod1", "pod10"]);
    assert_eq!(
        sort_items(&mut l, ".status.nothing").map_err(|e| e.to_string()),
        Err("couldn't find any field with path \"{.status.nothing}\" in the list of objects".into())
    );
    assert!(sort_items(&mut l, ".metadata.labels").is_err());
    let mut one = pod("a", "Running", None);
    assert_eq!(sort_items(&mut one, ".metadata.name"), Ok(vec![0]));
}

#[test]
fn strings_sort_as_quantities_or_naturally() {
    use std::cmp::Ordering::{Greater, Less};
    assert_eq!(natural("pod2", "pod10"), Less);
    assert_eq!(natural("a", "B"), Greater);
    assert_eq!(natural("x1", "x01"), Less);
    assert_eq!(natural("2024-01-02T00:00:00Z", "2024-01-10T00:00:00Z"), Less);
    assert_eq!(quantity("100m"), Some(0.1));
    assert_eq!(quantity("1Ki"), Some(1024.0));
    assert_eq!(quantity("2e3"), Some(2000.0));
    assert_eq!(quantity("Running"), None);
    assert_eq!(quantity("2024-01-02T00:00:00Z"), None);
    let mut l = list(vec![pod("a", "1Gi", None), pod("b", "500Mi", None)]);
    assert_eq!(sort_items(&mut l, ".status.phase"), Ok(vec![1, 0]));
}
