//! `--dry-run=client|server` of apply and delete, printed as kubectl prints them: client checks
//! the manifests (or the names) alone, without the engine; server asks the engine what is there.
//! Neither changes anything.

use crate::cli::{ApplyArgs, Cli};
use crate::escape::escape;
use crate::exit;
use crate::manifest::LoadOptions;
use crate::report::{output, PodKey, Reporter};
use crate::runtime::{ContainerRuntime, Observed, Selector};

/// `apply --dry-run=client`: the manifests loaded and checked as apply loads them (the errors
/// and exit codes of `validate`), and kubectl's line for each pod; no engine is contacted.
pub async fn applied_client(cli: &Cli, args: &ApplyArgs, reporter: &dyn Reporter) -> anyhow::Result<u8> {
    let opts = LoadOptions {
        namespace: args.namespace.clone(),
        strict: args.strict,
        unknown_fields: args.field_validation().into(),
    };
    let loaded = super::validate::load_checked(&args.manifest, &args.configs, &opts, reporter).await?;
    if !cli.quiet {
        for p in &loaded.pods {
            output::println(&created_line(p.name()))?;
        }
    }
    Ok(exit::SUCCESS)
}

/// kubectl's line for a pod a client dry run would create.
fn created_line(name: &str) -> String {
    escape(&format!("pod/{name} created (dry run)")).into_owned()
}

/// kubectl's line for a pod a dry run would delete.
fn deleted_line(name: &str, server: bool) -> String {
    let run = if server { "server dry run" } else { "dry run" };
    escape(&format!("pod {name:?} deleted ({run})")).into_owned()
}

/// `delete --dry-run=client`: the pods the arguments name, none looked for.
pub fn deleted_client(pods: &[PodKey]) -> anyhow::Result<u8> {
    for p in pods {
        output::println(&deleted_line(&p.name, false))?;
    }
    Ok(exit::SUCCESS)
}

/// `delete --dry-run=server`: the pods that are there, as the engine lists them (podrun's own
/// containers); a pod `named` that is not there is kubectl's NotFound (exit 1) unless `ignored`.
pub async fn deleted_server<R: ContainerRuntime>(
    rt: &R,
    pods: &[PodKey],
    named: &[PodKey],
    ignored: bool,
    reporter: &dyn Reporter,
) -> anyhow::Result<u8> {
    let mut code = exit::SUCCESS;
    for p in pods {
        let listed = rt.list(&Selector::pod(&p.namespace, &p.name)).await?;
        if listed.iter().any(Observed::is_owned) {
            output::println(&deleted_line(&p.name, true))?;
        } else if named.contains(p) && !ignored {
            reporter.say(&super::pod_not_found(&p.name));
            code = exit::INTERNAL;
        } else {
            reporter.event(p, "nothing to delete");
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_s_lines() {
        assert_eq!(created_line("web"), "pod/web created (dry run)");
        assert_eq!(deleted_line("web", false), "pod \"web\" deleted (dry run)");
        assert_eq!(deleted_line("web", true), "pod \"web\" deleted (server dry run)");
    }
}
