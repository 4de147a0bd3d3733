//! One module per subcommand; each returns the exit code, or an error that `exit` maps to one.

pub mod apply;
pub mod delete;

use crate::cli::{Cli, Command};
use crate::runtime::docker::DockerRuntime;
use crate::runtime::Runtime;

pub async fn run(cli: Cli) -> anyhow::Result<u8> {
    match &cli.command {
        Command::Apply(args) => apply::run(&cli, args).await,
        Command::Delete(args) => delete::run(&cli, args).await,
    }
}

/// Connects to the engine and checks it answers: unreachable is exit 3, within seconds.
pub(crate) async fn connect(cli: &Cli) -> anyhow::Result<DockerRuntime> {
    let rt = DockerRuntime::connect(cli.host.as_deref()).await?;
    let info = rt.info().await?;
    tracing::debug!(endpoint = rt.endpoint(), engine = %info.name, version = %info.version, api = %info.api_version, "connected");
    Ok(rt)
}
