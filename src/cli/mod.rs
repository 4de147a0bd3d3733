//! The command line: every flag podrun takes, in one place.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub mod inspect;

use crate::manifest::types::LabelSelector;
use crate::manifest::FieldValidation;

mod get_output;
pub mod wait_for;
pub use get_output::{parse_get_output, GetOutputArg};
pub use wait_for::{WaitForSpec, WaitUntilArg};

const ABOUT: &str = "Run Kubernetes Pod manifests once on a container engine, as a kubelet would";

const LONG_ABOUT: &str = "\
Run Kubernetes Pod manifests once on a container engine, the way a kubelet would: an infra
container that holds the pod's network and IPC namespaces, then the pod's init and app
containers joined to it. podrun then watches and repairs the pod, with exponential backoff,
until it is running (or complete) or the retry budget runs out, and exits with a code a script
can act on.

Engines: Docker (local socket, tcp://, TLS, ssh://), Podman's Docker-compatible API (root and
rootless), and containerd or CRI-O through the CRI (--runtime-endpoint), as the kubelet uses
them. Without an address podrun takes $DOCKER_HOST, the Docker context, Docker's socket, then
containerd's and CRI-O's sockets.

podrun keeps what it knows of each pod (its record, termination messages, volumes, events) in
its state directory: $PODRUN_STATE_DIR, else /var/lib/podrun as root, else
$XDG_STATE_HOME/podrun. get, wait, logs and delete find pods in the engine by podrun's labels
and claim only those this state directory made: use the same state directory for every command.

Exit codes: 0 success; 1 internal error; 2 invalid usage or manifest (nothing created);
3 container engine unreachable; 4 image unavailable; 5 not converged in time;
6 a container failed; 7 the pod was deleted while apply ran; 8 delete left containers
that are not podrun's to touch (another state directory's); 130/143 interrupted by
SIGINT/SIGTERM; 141 standard output closed (as SIGPIPE). With `apply --exit-code-from C`, C's
exit code replaces 0 and 6 (when C is the container that failed).

`podrun man` prints the manual page, with examples, the environment and the files podrun uses.";

/// The heading of the flags that say which engine to talk to and how; in every command's help.
const CONNECTION: &str = "Engine connection";
/// The heading of the flags that say how much podrun prints and in what form.
const OUTPUT: &str = "Output";
/// apply's headings: where the pods come from, how long and for what it waits, what the node
/// gives the pods, and what `--supervise` does.
const MANIFESTS: &str = "Manifests";
const WAITING: &str = "Waiting and retries";
const POD_ON_NODE: &str = "Pods on this node";
const SUPERVISION: &str = "Supervision";

impl Cli {
    /// Whether the command only relays the engine's streams (`logs`): it runs on one thread,
    /// where the engine connection's task hands each frame over without waking another thread
    /// per frame.
    #[must_use]
    pub fn relays_only(&self) -> bool {
        matches!(self.command, Command::Logs(_))
    }
}

#[derive(Debug, Parser)]
// The version names the commit podrun was built from, when built from a checkout (build.rs).
#[command(name = "podrun", version = env!("PODRUN_BUILD_VERSION"), about = ABOUT, long_about = LONG_ABOUT, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)
    ///
    /// Default: $DOCKER_HOST, else the Docker context (--context), else unix:///var/run/docker.sock
    /// (then containerd's and CRI-O's sockets, through the CRI). A tcp:// engine takes --tls or
    /// --tlsverify and the certificates below, as docker does.
    #[arg(help_heading = CONNECTION, short = 'H', long, global = true, value_name = "ADDRESS")]
    pub host: Option<String>,

    /// CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it
    ///
    /// Default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of
    /// containerd's and CRI-O's sockets found.
    #[arg(help_heading = CONNECTION, long, global = true, value_name = "ADDRESS", env = "CONTAINER_RUNTIME_ENDPOINT", hide_env = true, conflicts_with_all = ["host", "context"])]
    pub runtime_endpoint: Option<String>,

    /// Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT,
    /// else the Docker config's currentContext, unless --host or DOCKER_HOST is given]
    #[arg(help_heading = CONNECTION, hide_short_help = true, long, global = true, value_name = "NAME")]
    pub context: Option<String>,

    /// Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify
    /// [default: on if $DOCKER_TLS is set]
    #[arg(help_heading = CONNECTION, hide_short_help = true, long, global = true)]
    pub tls: bool,

    /// Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY
    /// is set]
    #[arg(help_heading = CONNECTION, hide_short_help = true, long, global = true)]
    pub tlsverify: bool,

    /// Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem,
    /// else ~/.docker/ca.pem]
    #[arg(help_heading = CONNECTION, hide_short_help = true, long, global = true, value_name = "FILE")]
    pub tlscacert: Option<String>,

    /// Client certificate for TLS [default: cert.pem beside ca.pem, if there]
    #[arg(help_heading = CONNECTION, hide_short_help = true, long, global = true, value_name = "FILE")]
    pub tlscert: Option<String>,

    /// Client certificate's key for TLS [default: key.pem beside ca.pem, if there]
    #[arg(help_heading = CONNECTION, hide_short_help = true, long, global = true, value_name = "FILE")]
    pub tlskey: Option<String>,

    /// Show only warnings and errors (and `-o json` output)
    #[arg(help_heading = OUTPUT, short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Say more: -v shows each action podrun takes, -vv adds debug logs
    #[arg(help_heading = OUTPUT, short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

// One is parsed per process: apply's many flags cost nothing there.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start a pod from a manifest and wait until it runs (or completes)
    #[command(long_about = "\
Start the pods of a manifest and wait until they run (or complete), repairing them on the way.

Re-applying an unchanged manifest to a running pod changes nothing. A container whose spec
changed is recreated alone; containers no longer in the manifest are removed.

Several FILEs, and directories (every *.yaml, *.yml and *.json file in them, sorted, not
recursive), are applied together, their pods concurrently: static pods at boot. --prune then
deletes podrun's pods that have no manifest among them anymore (in the namespaces they use).
--dry-run prints what would be done to each pod and changes nothing.

Every manifest error names the file and a line:column or a field path, and creates nothing.")]
    Apply(ApplyArgs),
    /// Check manifests as apply would, without a container engine
    #[command(long_about = "\
Check manifests as apply would (syntax, unknown fields, the API server's rules, features podrun
cannot provide on one host), without a container engine, and create nothing.

Prints the warnings and one line per pod (`pod default/web: valid`). Exits 0 when every pod is
valid and 2 otherwise, with every error naming the file and a line:column or a field path.")]
    Validate(ValidateArgs),
    /// Stop and remove the containers podrun created for a pod
    #[command(long_about = "\
Stop (SIGTERM, then SIGKILL after the grace period) and remove every container podrun created
for pods. Each TARGET is a manifest file (or - for standard input) when such a file exists, a
directory (every pod of its *.yaml, *.yml and *.json files, as apply DIR; -R reads its
subdirectories too), pod/NAME, and a pod name otherwise; kubectl's resource word first (pod,
pods, po) makes every other TARGET a pod name. A pod named that is not there is kubectl's
NotFound (the others are deleted; exit 1, or 0 with --ignore-not-found). Without TARGET, --all
deletes every pod of the namespace and -l the pods whose labels match. --force stops with grace period 0 (SIGKILL at once); --wait=false skips the stop and
removes each container with force. Exits 0 when there was nothing to remove. Containers podrun
did not create are never touched.")]
    Delete(DeleteArgs),
    /// List the pods podrun runs, as `kubectl get pods` does
    #[command(long_about = "\
List the pods podrun runs, found in the engine by podrun's labels (no manifest needed): NAME,
READY (ready containers out of all), STATUS (the phase, or the most telling reason, such as
CrashLoopBackOff, Error or Completed), RESTARTS and AGE, as `kubectl get pods` prints them.

With POD only that pod, with several only those (exit 1 when one does not exist). `-o json` and
`-o yaml` give the Pod object for one POD, as `kubectl get pod POD -o json` does, and a
Kubernetes List of Pod objects otherwise, as `apply -o json` does; `-o name`, `-o
jsonpath=TEMPLATE` and `-o custom-columns=SPEC` print from the same objects, in kubectl's
JSONPath, and `--sort-by=PATH` orders the pods.")]
    Get(GetArgs),
    /// Wait until pods podrun runs are running, ready or complete, as `kubectl wait` does
    #[command(long_about = "\
Wait until pods podrun already runs (applied earlier, or kept by `apply --supervise`) are
running, ready or complete, as `kubectl wait` and `docker compose wait` do, and exit with
apply's exit codes: 0 when every pod got there, 6 when a container failed for good, 5 at the
--timeout, 7 when a pod was deleted meanwhile, 130/143 on SIGINT/SIGTERM. Nothing is created,
started, restarted or deleted: the pods are only looked at, as `podrun get` reads them.

POD names the pods; --all takes every pod of the namespace and -l those whose labels match.
A POD podrun does not run is an error at once, with kubectl's words (exit 1, nothing waited
for); so is a selector that matches no pod. Without --for, each pod is waited for as apply
waits for it: each container by its restart policy (its own, else the pod's), running when
every exit is restarted, complete otherwise.

--for=condition=TYPE[=STATUS] (Ready, ContainersReady, Initialized, PodScheduled,
PodReadyToStartContainers), --for=delete and --for=jsonpath='{.status.phase}'=Succeeded (the
Pod object `get POD -o json` prints has that value; without =VALUE, any value) wait as kubectl
wait does, with no early end on a failure, and print `pod/NAME condition met`; for
--for=delete a pod not there is done at once.")]
    Wait(WaitArgs),
    /// Print a container's output, as `kubectl logs` does
    #[command(long_about = "\
Print the output of a container of a pod podrun runs: its stdout on stdout and its stderr on
stderr. Without -c, the pod's default container: the one its
`kubectl.kubernetes.io/default-container` annotation names, else its first app container.
--previous prints the instance before the last restart.")]
    Logs(LogsArgs),
    /// List the events of the pods podrun runs, as `kubectl events` does
    #[command(long_about = "\
List the events podrun recorded for the pods it runs, as the kubelet records them (Pulling,
Pulled, Created, Started, Killing, Unhealthy, BackOff, Failed...), as `kubectl events` prints
them: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, oldest first. A repeated event is one line with
its count (`10s (x4 over 2m)`). Each pod keeps its last 100 events, in podrun's state directory
beside its record; they go with the pod. -w prints each new event as it comes, until
interrupted. -o json|yaml gives an EventList of core/v1 Event objects.")]
    Events(inspect::EventsArgs),
    /// Show pods in detail with their events, as `kubectl describe pod` does
    #[command(long_about = "\
Show pods podrun runs in kubectl's describe layout: the pod (labels, annotations, status, IP),
each container (image, ports, command, state and last state, ready, restart count, resources,
probes, environment, mounts), conditions, volumes, QoS class, tolerations, and the pod's events.
An environment variable from a Secret or ConfigMap names its key, never its value. POD names
the pods (`describe pod web`, `describe pod/web` too); -l takes the pods whose labels match and
-f those of a manifest. Exit 1 when a pod named does not exist, as kubectl.")]
    Describe(inspect::DescribeArgs),
    /// Run a command in a container of a pod, as `kubectl exec` does
    #[command(long_about = "\
Run a command in a running container of a pod podrun runs, as `kubectl exec` does, and exit
with the command's exit status. Without -c, the pod's default container: the one its
`kubectl.kubernetes.io/default-container` annotation names, else its first app container.

-i passes standard input to the command (closed when it ends, so `podrun exec -i POD -- cat`
works in a pipe). -t with -i on a terminal gives the command a terminal: podrun's terminal is
put in raw mode (restored on exit), and resized with it. -t without a terminal to read from is
ignored with a warning, as kubectl does. Errors of podrun itself (no such pod or container,
container not running) exit 1, an unreachable engine 3.")]
    Exec(ExecArgs),
    /// Copy files and directories to and from containers, as `kubectl cp` does
    #[command(long_about = "\
Copy files and directories to and from a container of a pod podrun runs, as `kubectl cp`
does: `podrun cp POD:PATH DEST` copies out, `podrun cp SRC POD:PATH` copies in; POD may be
NAMESPACE/POD. Without -c, the pod's default container: the one its
`kubectl.kubernetes.io/default-container` annotation names, else its first app container.

Directories are copied recursively, with their modes; symbolic links are kept as links.
Copying out, nothing is written outside DEST: entries with absolute names or `..`, links
leading out and device nodes are skipped with a warning, and no link under DEST is written
through. On Docker and Podman a container that exited can be copied from and to (a finished
job's artefacts); on a CRI runtime (containerd, CRI-O) the copy runs `tar` in the running
container, as kubectl does, so the image needs `tar`. Errors of podrun itself (no such pod,
container or path) exit 1, an unreachable engine 3.")]
    Cp(CpArgs),
    /// Remove podrun's dead containers and leftover files, as the kubelet's container GC does
    #[command(long_about = "\
Remove what podrun no longer needs, as the kubelet's container garbage collection does, for
podrun's containers only (a container without podrun's ownership label is never touched):

- dead (exited) instances of a pod's container beyond --max-dead, oldest first; the newest
  instance of each container is never removed while the pod's infra container exists;
- every container of a pod whose infra container is gone, once all of them are dead;
- podrun's host files (termination logs, emptyDir and other volume directories) of pods that
  have no container left.

Only what finished at least --min-age ago is removed. --dry-run prints what would go.")]
    Gc(GcArgs),
    /// Show the CPU and memory of pods now, as `kubectl top pod` does
    #[command(long_about = "\
`podrun top pod`: the CPU and memory the pods podrun runs use now, from the engine's statistics,
as `kubectl top pod` prints them: CPU(cores) in millicores (the usage rate over about a second,
or the engine's own rate where a CRI runtime gives one) and MEMORY(bytes), the working set in
Mi (usage less inactive file pages, as cAdvisor counts it). The infra container is not counted;
a pod without a running container has no row.")]
    Top(TopArgs),
    /// Print the completion script for a shell on stdout
    #[command(long_about = "\
Print the completion script for SHELL on stdout, e.g.
`podrun completions bash > /etc/bash_completion.d/podrun`.")]
    Completions {
        /// The shell to complete for
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the man page, podrun(1), on stdout
    #[command(long_about = "\
Print the man page, podrun(1) with every command and option, in roff on stdout, e.g.
`podrun man > /usr/local/share/man/man1/podrun.1`.")]
    Man,
    /// The pod or container names that fit the last of WORDS (the words of a command line being
    /// completed); for the completion scripts
    #[command(name = "__complete", hide = true)]
    Complete {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "WORDS")]
        words: Vec<String>,
    },
}

/// Where the manifests come from: positional FILEs (or directories), or `-f FILE`.
#[derive(Debug, Args)]
pub struct ManifestArgs {
    /// Manifest files with one or more YAML documents, - for standard input, directories
    /// (every *.yaml, *.yml and *.json file in them, sorted; not recursive), or http:// and
    /// https:// URLs
    #[arg(value_name = "FILE", required_unless_present = "filename", conflicts_with = "filename")]
    pub files: Vec<String>,

    /// Manifest file, directory or URL (as kubectl takes it; repeatable)
    #[arg(help_heading = MANIFESTS, short = 'f', long = "filename", value_name = "FILE")]
    pub filename: Vec<String>,

    /// Read directories recursively: the manifests of their subdirectories too (sorted; links
    /// to directories are not followed)
    #[arg(help_heading = MANIFESTS, short = 'R', long)]
    pub recursive: bool,

    /// An HTTP header for URL manifests, as the kubelet's --manifest-url-header
    ///
    /// Repeatable; the value is never printed.
    #[arg(help_heading = MANIFESTS, long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,
}

impl ManifestArgs {
    /// The paths as given (files, directories or -).
    pub fn paths(&self) -> Vec<String> {
        if !self.filename.is_empty() {
            return self.filename.clone();
        }
        if self.files.is_empty() {
            return vec!["-".to_owned()];
        }
        self.files.clone()
    }
}

#[derive(Debug, Args)]
pub struct ApplyArgs {
    #[command(flatten)]
    pub manifest: ManifestArgs,

    /// Namespace for pods whose manifest names none
    #[arg(help_heading = MANIFESTS, short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// Overall deadline (e.g. 90s, 5m)
    #[arg(help_heading = WAITING, long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub timeout: Duration,

    /// How many times to repair the pod (restart, recreate) after the first sync
    #[arg(help_heading = WAITING, long, value_name = "N", default_value_t = 10)]
    pub retries: u32,

    /// Wait before the first repair; later waits grow by --backoff
    #[arg(help_heading = WAITING, long, value_name = "DURATION", default_value = "1s", value_parser = parse_duration)]
    pub retry_delay: Duration,

    /// Factor by which the wait grows after each repair
    #[arg(help_heading = WAITING, long, value_name = "FACTOR", default_value_t = 2.0, value_parser = parse_backoff)]
    pub backoff: f64,

    /// Wait before restarting a crashed container the second time
    ///
    /// It doubles each restart, up to --crash-backoff-max; the first restart is immediate.
    #[arg(help_heading = WAITING, long, value_name = "DURATION", default_value = "1s", value_parser = parse_duration)]
    pub crash_backoff: Duration,

    /// The longest wait between restarts of a crashing container
    #[arg(help_heading = WAITING, long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub crash_backoff_max: Duration,

    /// How long a container must have been up before it counts as running
    ///
    /// Measured from its start as the engine records it; a container restarted after a crash must
    /// stay up five times as long. 0 counts a container as running as soon as the engine says it
    /// runs.
    #[arg(help_heading = WAITING, long, value_name = "DURATION", default_value = "200ms", value_parser = parse_duration)]
    pub min_uptime: Duration,

    /// Remove what this run created when the pod fails or the run is interrupted
    #[arg(help_heading = WAITING, long)]
    pub cleanup_on_failure: bool,

    /// Remove the pods when podrun exits: after completion, failure or interrupt
    ///
    /// Their containers and podrun's files for them.
    #[arg(help_heading = WAITING, long)]
    pub rm: bool,

    /// Show the containers' output on stdout while waiting
    ///
    /// Init containers too, each line prefixed with its container's name.
    #[arg(help_heading = OUTPUT, long)]
    pub logs: bool,

    /// Exit with this container's exit code; implies --abort-on-container-exit
    ///
    /// Its last termination's code, once the run ends successfully or this container failed.
    #[arg(help_heading = WAITING, long, value_name = "CONTAINER")]
    pub exit_code_from: Option<String>,

    /// Stop the pod when an app container ends for good, as `docker compose up` does
    ///
    /// Once an app container has terminated and its restart policy will not start it again, the
    /// pod's other containers are stopped within their grace periods and podrun exits with that
    /// container's exit code; implies --wait-for complete. The manifest must hold one pod.
    #[arg(help_heading = WAITING, long)]
    pub abort_on_container_exit: bool,

    /// What to wait for
    ///
    /// Default: each container by its restart policy (its own, else the pod's): running when every
    /// exit is restarted, complete otherwise.
    #[arg(help_heading = WAITING, long, value_enum, value_name = "WHAT")]
    pub wait_for: Option<WaitForArg>,

    /// Output format of the result on stdout
    #[arg(help_heading = OUTPUT, short, long, value_enum, default_value = "text", value_name = "FORMAT")]
    pub output: OutputArg,

    /// Attach pods to this user-defined engine network (so static pods reach each other by name)
    #[arg(help_heading = POD_ON_NODE, long, value_name = "NAME")]
    pub network: Option<String>,

    /// Image for the pod's infra container [default: podrun's own, built locally]
    #[arg(help_heading = POD_ON_NODE, long, value_name = "IMAGE")]
    pub infra_image: Option<String>,

    /// Override every container's imagePullPolicy for this run
    ///
    /// always (Always), missing (IfNotPresent) or never (Never).
    #[arg(help_heading = POD_ON_NODE, long, value_enum, value_name = "WHEN")]
    pub pull: Option<PullArg>,

    /// Which images on the node a pod must be shown to be allowed before it uses them, as the
    /// kubelet's imagePullCredentialsVerificationPolicy
    ///
    /// An image podrun pulled with a pod's imagePullSecret serves another pod only with the same
    /// credentials; without them the pod pulls it with its own (IfNotPresent) or fails
    /// (ErrImageNeverPull). NeverVerifyPreloadedImages: images on the node before podrun pulled
    /// them are anyone's; NeverVerifyAllowlistedImages: only those of
    /// --preloaded-images-verification-allowlist are; AlwaysVerify: none; NeverVerify: no check.
    #[arg(help_heading = POD_ON_NODE, long, value_enum, value_name = "POLICY",
          default_value = "NeverVerifyPreloadedImages")]
    pub image_pull_credentials_verification_policy: CredentialsPolicyArg,

    /// Images anyone may use under NeverVerifyAllowlistedImages, comma-separated
    ///
    /// Full repository names (docker.io/library/busybox) or prefixes ending in /*
    /// (registry.example/*), as the kubelet's preloadedImagesVerificationAllowlist.
    #[arg(help_heading = POD_ON_NODE, long, value_name = "IMAGES", value_delimiter = ',')]
    pub preloaded_images_verification_allowlist: Vec<String>,

    /// The node's IP addresses, the pods' hostIP and hostIPs, as the kubelet's --node-ip
    ///
    /// One address of this host, or a dual-stack pair (an IPv4 and an IPv6 address, the first
    /// the primary: hostIP). Default: one address, the host name's if it is one of this host's,
    /// else the default route's (IPv4 first); 0.0.0.0 and :: pick it so, :: preferring IPv6 among
    /// the host name's addresses. Loopback, link-local, multicast and addresses that are not this
    /// host's are refused. hostNetwork pods get them as their podIPs.
    #[arg(help_heading = POD_ON_NODE, long, value_name = "IP[,IP]", value_parser = parse_node_ip)]
    pub node_ip: Option<crate::runtime::node_ip::NodeIpChoice>,

    /// Refuse Kubernetes fields podrun ignores
    ///
    /// Fields podrun does not implement yet, or that mean something only on a cluster, are
    /// otherwise accepted with a warning.
    #[arg(help_heading = MANIFESTS, long)]
    pub strict: bool,

    /// Run containers without a seccompProfile under the engine's default (RuntimeDefault)
    ///
    /// As a kubelet with seccompDefault does, for containers for which neither the pod nor the
    /// container sets a profile; without it they run Unconfined, as under a kubelet's default
    /// settings.
    #[arg(help_heading = POD_ON_NODE, long)]
    pub seccomp_default: bool,

    /// Sysctls a pod may set beyond the safe ones, as the kubelet's --allowed-unsafe-sysctls
    ///
    /// Names or prefixes ending in * (kernel.msg*), comma-separated; only sysctls the kernel keeps per
    /// pod (net.*, kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*). Any other is refused before
    /// anything is created (SysctlForbidden).
    #[arg(help_heading = POD_ON_NODE, long, value_name = "SYSCTLS", value_delimiter = ',', value_parser = parse_unsafe_sysctl)]
    pub allowed_unsafe_sysctls: Vec<String>,

    /// Fields Kubernetes does not know: strict, warn or ignore, as kubectl's --validate
    ///
    /// strict refuses them; warn drops each with a warning naming its place; ignore drops them
    /// silently, as a kubelet's file source does (true and false stand for strict and ignore).
    /// Default: strict, and warn under --supervise, which keeps pods as a kubelet keeps its static
    /// pods
    #[arg(help_heading = MANIFESTS, long, value_enum, value_name = "HOW", num_args = 0..=1, require_equals = true,
          default_missing_value = "strict")]
    pub validate: Option<ValidateArg>,

    /// A file of ConfigMaps and Secrets the pods refer to (repeatable)
    #[arg(help_heading = MANIFESTS, long = "config", value_name = "FILE")]
    pub configs: Vec<String>,

    /// After applying, delete podrun's pods that no longer have a manifest here
    ///
    /// Only pods of the namespaces the given files' manifests use (and -n) are considered;
    /// never others.
    #[arg(help_heading = MANIFESTS, long, conflicts_with = "filename")]
    pub prune: bool,

    /// Change nothing: server (the bare flag), client or none
    ///
    /// server prints what apply would do to each pod (containers to create, recreate, start,
    /// stop or remove, images to pull); client only checks the manifests, without the engine,
    /// and prints each pod as kubectl does (`pod/web created (dry run)`); none is off.
    #[arg(help_heading = MANIFESTS, long, value_enum, value_name = "WHEN", num_args = 0..=1, require_equals = true,
          default_missing_value = "server",
          conflicts_with_all = ["prune", "rm", "logs", "exit_code_from", "abort_on_container_exit"])]
    pub dry_run: Option<DryRunArg>,

    /// Stay after the first pass and keep repairing the pods, as a kubelet does
    ///
    /// Restarts with CrashLoopBackOff and recreates lost containers until SIGINT or SIGTERM (then
    /// exits 0, leaving the pods running). Tells systemd when the first pass is done (Type=notify).
    /// Changed manifests are applied again (checked every 20 s, and on SIGHUP).
    #[arg(help_heading = SUPERVISION,
        long,
        conflicts_with_all = ["dry_run", "rm", "logs", "exit_code_from", "abort_on_container_exit", "cleanup_on_failure"]
    )]
    pub supervise: bool,

    /// CRI runtimes: rotate a container's log once it is this large (500Ki, 10Mi)
    ///
    /// As the kubelet's --container-log-max-size.
    #[arg(help_heading = SUPERVISION, long, value_name = "SIZE", default_value = "10Mi", value_parser = parse_log_size, requires = "supervise")]
    pub container_log_max_size: u64,

    /// CRI runtimes: the most files a container's log is kept in (at least 2)
    ///
    /// The one being written included, as the kubelet's --container-log-max-files.
    #[arg(help_heading = SUPERVISION, long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..),
          requires = "supervise")]
    pub container_log_max_files: u32,

    /// CRI runtimes: how often the containers' logs are looked at for rotation
    ///
    /// As the kubelet's containerLogMonitorInterval.
    #[arg(help_heading = SUPERVISION, long, value_name = "DURATION", default_value = "10s", value_parser = parse_interval, requires = "supervise")]
    pub container_log_monitor_interval: Duration,

    /// Pull Always images again every INTERVAL and restart containers whose image moved
    ///
    /// A container updated is rolled back when it fails within --auto-update-settle; `off` (the
    /// default) leaves images as they are, as a kubelet does. At least 1s.
    #[arg(help_heading = SUPERVISION, long, value_name = "INTERVAL", env = "PODRUN_AUTO_UPDATE", value_parser = parse_auto_update)]
    pub auto_update: Option<Duration>,

    /// How long an auto-updated container must run before its update counts
    ///
    /// It must start, run without restarting and (with a readiness probe) be ready for this long;
    /// else it is rolled back. At least 1s.
    #[arg(help_heading = SUPERVISION, long, value_name = "DURATION", env = "PODRUN_AUTO_UPDATE_SETTLE", default_value = "60s",
          value_parser = parse_auto_update_settle)]
    pub auto_update_settle: Duration,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub manifest: ManifestArgs,

    /// A file of ConfigMaps and Secrets the pods refer to (repeatable)
    #[arg(long = "config", value_name = "FILE")]
    pub configs: Vec<String>,

    /// Namespace for pods whose manifest names none
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// Override every container's imagePullPolicy for this run: always (Always), missing
    /// (IfNotPresent) or never (Never)
    #[arg(long, value_enum, value_name = "WHEN")]
    pub pull: Option<PullArg>,

    /// Refuse Kubernetes fields podrun ignores (not yet implemented, or only meaningful on a
    /// cluster)
    #[arg(long)]
    pub strict: bool,

    /// Fields Kubernetes does not know, as kubectl has it: strict refuses them; warn drops
    /// each with a warning naming its place; ignore drops them silently, as a kubelet's file
    /// source does (true and false stand for strict and ignore)
    #[arg(long, value_enum, value_name = "HOW", default_value = "strict", num_args = 0..=1,
          require_equals = true, default_missing_value = "strict")]
    pub validate: ValidateArg,
}

/// `--dry-run`: kubectl's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DryRunArg {
    /// Off
    None,
    /// Check the manifests only; the engine is not contacted
    Client,
    /// Ask the engine what would be done, and do nothing
    Server,
}

impl ApplyArgs {
    /// `--dry-run`, `none` when not given.
    pub fn dry_run(&self) -> DryRunArg {
        self.dry_run.unwrap_or(DryRunArg::None)
    }

    /// What becomes of unknown fields: `--validate`, else strict for one pass and warn under
    /// `--supervise`, where a manifest podrun keeps running is read as a kubelet's file source
    /// reads it (it drops them) and a field a newer Kubernetes added must not stop a boot.
    pub fn field_validation(&self) -> ValidateArg {
        self.validate.unwrap_or(if self.supervise { ValidateArg::Warn } else { ValidateArg::Strict })
    }
}

/// `--validate`: kubectl's values, and its older true and false.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateArg {
    #[value(alias = "true")]
    Strict,
    Warn,
    #[value(alias = "false")]
    Ignore,
}

impl From<ValidateArg> for FieldValidation {
    fn from(v: ValidateArg) -> Self {
        match v {
            ValidateArg::Strict => FieldValidation::Strict,
            ValidateArg::Warn => FieldValidation::Warn,
            ValidateArg::Ignore => FieldValidation::Ignore,
        }
    }
}

#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// Manifest files (or -), directories of manifests (as apply takes them), http:// or
    /// https:// URLs of some, or pod names: NAME, pod/NAME, or kubectl's resource word first
    /// (`pod NAME...`, `pods`, `po`)
    #[arg(
        value_name = "TARGET",
        required_unless_present_any = ["filename", "all", "selector"],
        conflicts_with_all = ["filename", "all", "selector"]
    )]
    pub target: Vec<String>,

    /// Every pod podrun runs in the namespace (-n, default: default)
    #[arg(long, conflicts_with_all = ["filename", "selector"])]
    pub all: bool,

    /// Only the pods whose labels match, as kubectl's -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...),
    /// KEY notin (V,...), KEY, !KEY, comma-joined (all must match)
    #[arg(short = 'l', long, value_name = "SELECTOR", value_parser = parse_selector, conflicts_with = "filename")]
    pub selector: Option<LabelSelector>,

    /// Grace period 0: SIGKILL at once, without preStop hooks
    #[arg(long)]
    pub force: bool,

    /// With --wait=false: no preStop hooks, no grace period; each container is removed with
    /// force (the engine kills it), and podrun returns once the engine has removed them
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set,
          num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub wait: bool,

    /// Manifest file, directory or URL whose pods to delete (repeatable)
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    pub filename: Vec<String>,

    /// Read directories recursively: the manifests of their subdirectories too
    #[arg(short = 'R', long)]
    pub recursive: bool,

    /// A pod named that does not exist is not an error, as kubectl's flag
    #[arg(long)]
    pub ignore_not_found: bool,

    /// Delete nothing: server (the bare flag) finds the pods in the engine and says which would
    /// be deleted; client only says the pods named (no engine); none is off
    #[arg(long, value_enum, value_name = "WHEN", num_args = 0..=1, require_equals = true,
          default_missing_value = "server")]
    pub dry_run: Option<DryRunArg>,

    /// Namespace of the pod [default: the manifest's, or default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// Seconds to wait after SIGTERM before SIGKILL [default: the pod's
    /// terminationGracePeriodSeconds]
    #[arg(long, value_name = "SECONDS")]
    pub grace_period: Option<u64>,

    /// Also remove the engine volumes of the pods' persistentVolumeClaims (kept otherwise,
    /// as a claim outlives its pod)
    #[arg(long)]
    pub delete_volumes: bool,

    /// An HTTP header sent with every request for a URL manifest (repeatable; the value is
    /// never printed)
    #[arg(long = "header", value_name = "NAME:VALUE")]
    pub headers: Vec<String>,
}

#[derive(Debug, Args)]
pub struct TopArgs {
    /// What to show: pods (kubectl's words pod, pods, po)
    #[arg(value_name = "RESOURCE", value_parser = ["pod", "pods", "po"])]
    pub resource: String,

    /// Only this pod
    #[arg(value_name = "POD", conflicts_with_all = ["all_namespaces", "selector"])]
    pub pod: Option<String>,

    /// Namespace of the pods [default: default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace, conflicts_with = "all_namespaces")]
    pub namespace: Option<String>,

    /// Pods of every namespace, with a NAMESPACE column
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// Only the pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)
    #[arg(short = 'l', long, value_name = "SELECTOR", value_parser = parse_selector)]
    pub selector: Option<LabelSelector>,

    /// A row per container: POD, NAME, CPU(cores), MEMORY(bytes)
    #[arg(long)]
    pub containers: bool,

    /// No header line
    #[arg(long)]
    pub no_headers: bool,
}

#[derive(Debug, Args)]
pub struct GcArgs {
    /// Print what would be removed, and remove nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Dead instances kept per pod container (besides the newest instance), for lastState
    /// and `logs --previous`
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub max_dead: usize,

    /// Only remove what finished (or, for files, changed) at least this long ago
    #[arg(long, value_name = "DURATION", default_value = "1m", value_parser = parse_duration)]
    pub min_age: Duration,
}

#[derive(Debug, Args)]
pub struct GetArgs {
    /// Only these pods: NAME..., or kubectl's forms `pods [NAME...]` (also `pod`, `po`) and
    /// `pod/NAME...`
    #[arg(value_name = "POD")]
    pub pods: Vec<String>,

    /// Namespace of the pods [default: default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace, conflicts_with = "all_namespaces")]
    pub namespace: Option<String>,

    /// Pods of every namespace, with a NAMESPACE column
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,

    /// Only the pods whose labels match, as kubectl's -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...),
    /// KEY notin (V,...), KEY, !KEY, comma-joined (all must match)
    #[arg(short = 'l', long, value_name = "SELECTOR", value_parser = parse_any_selector)]
    pub selector: Option<LabelSelector>,

    /// Output format: the table, the table with IP and IMAGES (wide), the Pod (one POD) or a
    /// List of Pods (json, yaml), pod/NAME lines (name), or kubectl's jsonpath=TEMPLATE,
    /// jsonpath-file=FILE, custom-columns=HEADER:PATH,... and custom-columns-file=FILE
    #[arg(short, long, value_name = "FORMAT", value_parser = parse_get_output)]
    pub output: Option<GetOutputArg>,

    /// The table without its header line
    #[arg(long)]
    pub no_headers: bool,

    /// A LABELS column: each pod's labels, KEY=VALUE comma-joined
    #[arg(long)]
    pub show_labels: bool,

    /// A column per label KEY, headed by the key upper-cased
    #[arg(short = 'L', long, value_name = "KEY", value_delimiter = ',')]
    pub label_columns: Vec<String>,

    /// After the table, a line for each pod whose row changes, until interrupted
    #[arg(short, long)]
    pub watch: bool,

    /// As --watch, without the table first
    #[arg(long, conflicts_with = "watch")]
    pub watch_only: bool,

    /// Sort the pods by the value at this JSONPath (e.g. .metadata.name,
    /// '{.status.containerStatuses[0].restartCount}'), as kubectl does
    #[arg(long, value_name = "JSONPATH")]
    pub sort_by: Option<String>,
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// The pods to wait for
    #[arg(value_name = "POD", required_unless_present_any = ["all", "selector"], conflicts_with_all = ["all", "selector"])]
    pub pods: Vec<String>,

    /// Every pod podrun runs in the namespace (-n, default: default)
    #[arg(long, conflicts_with = "selector")]
    pub all: bool,

    /// Only the pods whose labels match, as kubectl's -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...),
    /// KEY notin (V,...), KEY, !KEY, comma-joined (all must match)
    #[arg(short = 'l', long, value_name = "SELECTOR", value_parser = parse_selector)]
    pub selector: Option<LabelSelector>,

    /// Namespace of the pods [default: default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// What to wait for: running, ready, complete, condition=TYPE[=STATUS], delete or
    /// jsonpath='{PATH}'[=VALUE]
    ///
    /// running, ready or complete as apply's --wait-for; condition=TYPE[=STATUS] a pod
    /// condition (Ready, ContainersReady, Initialized, PodScheduled, PodReadyToStartContainers;
    /// STATUS true by default); delete the pod gone; jsonpath='{PATH}'=VALUE the value in the Pod
    /// `get POD -o json` prints (without =VALUE, any value), as kubectl's. Default: as apply, each
    /// container by its restart policy: running when every exit is restarted, complete otherwise.
    #[arg(long = "for", value_name = "WHAT", value_parser = wait_for::parse)]
    pub wait_for: Option<WaitForSpec>,

    /// Overall deadline (e.g. 90s, 5m)
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = parse_duration)]
    pub timeout: Duration,

    /// Output format of the result on stdout (json: the List of Pod objects `get -o json` gives)
    #[arg(short, long, value_enum, default_value = "text", value_name = "FORMAT")]
    pub output: OutputArg,
}

#[derive(Debug, Args)]
pub struct LogsArgs {
    /// The pod
    #[arg(value_name = "POD", required_unless_present = "selector", conflicts_with = "selector")]
    pub pod: Option<String>,

    /// The pods whose labels match, as get -l; each one's output (the last 10 lines unless
    /// --tail says), as kubectl logs -l
    #[arg(short = 'l', long, value_name = "SELECTOR", value_parser = parse_selector)]
    pub selector: Option<LabelSelector>,

    /// With -l and -f: the most containers followed at once
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_log_requests: usize,

    /// The container [default: the pod's default container]
    #[arg(short, long, value_name = "CONTAINER", conflicts_with = "all_containers")]
    pub container: Option<String>,

    /// Namespace of the pod [default: default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// Keep printing output as it is written, until the container stops
    #[arg(short, long)]
    pub follow: bool,

    /// Only the last N lines
    #[arg(long, value_name = "N")]
    pub tail: Option<usize>,

    /// Only output newer than this (e.g. 10s, 5m)
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub since: Option<Duration>,

    /// The output of the instance before the last restart
    #[arg(short, long)]
    pub previous: bool,

    /// Start each line with its RFC 3339 timestamp
    #[arg(long)]
    pub timestamps: bool,

    /// Every container of the pod, init containers first
    #[arg(long)]
    pub all_containers: bool,

    /// Start each line with its source, `[pod/POD/CONTAINER] `
    #[arg(long)]
    pub prefix: bool,
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// The pod
    #[arg(value_name = "POD")]
    pub pod: String,

    /// The command and its arguments
    #[arg(value_name = "COMMAND", required = true, last = true, num_args = 1..)]
    pub command: Vec<String>,

    /// The container [default: the pod's default container]
    #[arg(short, long, value_name = "CONTAINER")]
    pub container: Option<String>,

    /// Namespace of the pod [default: default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// Pass standard input to the command
    #[arg(short = 'i', long)]
    pub stdin: bool,

    /// Give the command a terminal (with -i, when standard input is one)
    #[arg(short, long)]
    pub tty: bool,
}

#[derive(Debug, Args)]
pub struct CpArgs {
    /// What to copy: a local path, or [NAMESPACE/]POD:PATH
    #[arg(value_name = "SRC")]
    pub src: String,

    /// Where to copy it: [NAMESPACE/]POD:PATH, or a local path
    #[arg(value_name = "DEST")]
    pub dest: String,

    /// The container [default: the pod's default container]
    #[arg(short, long, value_name = "CONTAINER")]
    pub container: Option<String>,

    /// Namespace of the pod [default: default]
    #[arg(short, long, value_name = "NS", value_parser = parse_namespace)]
    pub namespace: Option<String>,

    /// The copied file/directory's ownership and permissions will not be preserved in the
    /// container
    #[arg(long)]
    pub no_preserve: bool,

    /// Set number of retries to complete a copy operation from a container. Specify 0 to
    /// disable or any negative value for infinite retrying
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true)]
    pub retries: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WaitForArg {
    /// Every container running (or completed with exit 0 where it is not restarted)
    Running,
    /// Every container terminated for good; success when all exited 0
    Complete,
    /// Every container ready: its readiness probe passes (running, without one)
    Ready,
    /// Nothing: create and start the pod, then return
    None,
}

/// The kubelet's imagePullCredentialsVerificationPolicy names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CredentialsPolicyArg {
    #[value(name = "NeverVerify")]
    NeverVerify,
    #[value(name = "NeverVerifyPreloadedImages")]
    NeverVerifyPreloadedImages,
    #[value(name = "NeverVerifyAllowlistedImages")]
    NeverVerifyAllowlistedImages,
    #[value(name = "AlwaysVerify")]
    AlwaysVerify,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PullArg {
    Always,
    Missing,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputArg {
    Text,
    Json,
}

/// Why a flag's value was refused; clap prints it after the flag's name.
#[derive(Debug, thiserror::Error)]
enum FlagError {
    /// The API server's words for a namespace that is not a DNS-1123 label.
    #[error("{}", .0.join("; "))]
    Namespace(Vec<String>),
    #[error(transparent)]
    NodeIp(#[from] crate::runtime::node_ip::NodeIpError),
    #[error(transparent)]
    UnsafeSysctl(#[from] crate::pod::admission::SysctlPatternError),
    #[error("{0} (examples: 90s, 5m, 1h30m)")]
    Duration(#[source] humantime::DurationError),
    #[error("{0} (e.g. app=web,tier!=back,env in (ci,dev))")]
    Selector(#[source] crate::manifest::label_selector::SelectorError),
    #[error("an empty selector selects every pod: say --all for that")]
    EmptySelector,
    #[error("must be a number of at least 1 (e.g. 2)")]
    Backoff,
    #[error("must be a size above 0 (a quantity: 500Ki, 10Mi)")]
    LogSize,
    #[error("must be longer than 0 (e.g. 10s)")]
    ZeroInterval,
    #[error("must be a duration of at least 1s (e.g. 1h), or `off` for --auto-update")]
    AutoUpdate,
}

/// `-n`: a namespace, as the API server checks one (`ValidateNamespaceName`, a DNS-1123
/// label), with its message. It also names directories on the host, so nothing else may pass.
fn parse_namespace(s: &str) -> Result<String, FlagError> {
    let problems = crate::manifest::validate::dns1123_label_problems(s);
    if problems.is_empty() {
        Ok(s.to_owned())
    } else {
        Err(FlagError::Namespace(problems))
    }
}

fn parse_node_ip(s: &str) -> Result<crate::runtime::node_ip::NodeIpChoice, FlagError> {
    crate::runtime::node_ip::parse_flag(s).map_err(FlagError::NodeIp)
}

fn parse_unsafe_sysctl(s: &str) -> Result<String, FlagError> {
    crate::pod::admission::check_unsafe_pattern(s).map_err(FlagError::UnsafeSysctl)
}

fn parse_duration(s: &str) -> Result<Duration, FlagError> {
    humantime::parse_duration(s).map_err(FlagError::Duration)
}

fn parse_interval(s: &str) -> Result<Duration, FlagError> {
    Some(parse_duration(s)?).filter(|d| !d.is_zero()).ok_or(FlagError::ZeroInterval)
}

/// `--auto-update`: `off` (Duration::ZERO), or an interval no shorter than the floor, since
/// each check asks the registry.
/// Empty is off too: an environment file's `PODRUN_AUTO_UPDATE=`.
fn parse_auto_update(s: &str) -> Result<Duration, FlagError> {
    if s == "off" || s.is_empty() {
        return Ok(Duration::ZERO);
    }
    parse_auto_update_settle(s)
}

/// `--auto-update-settle`: empty is the default (an environment file's setting left blank).
fn parse_auto_update_settle(s: &str) -> Result<Duration, FlagError> {
    if s.is_empty() {
        return Ok(Duration::from_secs(60));
    }
    parse_duration(s).ok().filter(|d| *d >= crate::driver::auto_update::FLOOR).ok_or(FlagError::AutoUpdate)
}

/// `--container-log-max-size`: a quantity, as the kubelet takes it, of at least one byte.
fn parse_log_size(s: &str) -> Result<u64, FlagError> {
    let q = crate::manifest::quantity::Quantity::parse(s).map_err(|_| FlagError::LogSize)?;
    u64::try_from(q.value_ceil()).ok().filter(|&n| n > 0).ok_or(FlagError::LogSize)
}

/// `-l` of a command that changes or waits on what it selects: a label selector with kubectl's
/// syntax (`manifest::label_selector`), not empty: an empty one selects every pod, which
/// `--all` says.
fn parse_selector(s: &str) -> Result<LabelSelector, FlagError> {
    let selector = parse_any_selector(s)?;
    if selector.is_empty() {
        return Err(FlagError::EmptySelector);
    }
    Ok(selector)
}

/// `get -l`: any selector, the empty one selecting every pod, as kubectl's `-l ''`.
fn parse_any_selector(s: &str) -> Result<LabelSelector, FlagError> {
    crate::manifest::label_selector::parse(s).map_err(FlagError::Selector)
}

fn parse_backoff(s: &str) -> Result<f64, FlagError> {
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() && f >= 1.0 => Ok(f),
        _ => Err(FlagError::Backoff),
    }
}

#[cfg(test)]
mod docs_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn delete_selectors_require_every_pair() {
        let selected = |flag: &str, labels: &[(&str, &str)]| {
            let selector = parse_selector(flag).unwrap();
            let labels = labels.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
            selector.matches(&labels) == Some(true)
        };
        assert!(selected(" app = x ,tier=front", &[("app", "x"), ("tier", "front"), ("other", "y")]));
        assert!(!selected("app=x,tier=front", &[("app", "x")]));
        assert!(selected("app=x,app=x", &[("app", "x")]));
        assert!(!selected("app=x,app=y", &[("app", "x")]), "a key said twice holds both values");
        assert!(!selected("app=x,app=y", &[("app", "y")]), "a key said twice holds both values");
        assert!(selected("app,!gone,tier in (front,back)", &[("app", "x"), ("tier", "front")]));
        for bad in ["=x", " =x", "app=x,", "app=x,,tier=y", "", " "] {
            assert!(parse_selector(bad).is_err(), "{bad:?} taken");
        }
    }

    #[test]
    fn the_cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn auto_update_is_off_unless_asked_and_has_a_floor() {
        let of = |extra: &[&str]| {
            let args = ["podrun", "apply", "p.yaml", "--supervise"].into_iter().chain(extra.iter().copied());
            Cli::try_parse_from(args).map(|cli| match cli.command {
                Command::Apply(a) => (a.auto_update, a.auto_update_settle),
                _ => panic!("not apply"),
            })
        };
        let minute = Duration::from_secs(60);
        if std::env::var_os("PODRUN_AUTO_UPDATE").is_none() && std::env::var_os("PODRUN_AUTO_UPDATE_SETTLE").is_none() {
            assert_eq!(of(&[]).unwrap(), (None, minute), "off by default, as a kubelet");
        }
        assert_eq!(of(&["--auto-update", "1h"]).unwrap().0, Some(Duration::from_secs(3600)));
        assert_eq!(of(&["--auto-update", "off"]).unwrap().0, Some(Duration::ZERO));
        assert_eq!(of(&["--auto-update", "", "--auto-update-settle", ""]).unwrap(), (Some(Duration::ZERO), minute));
        assert_eq!(
            of(&["--auto-update", "1s", "--auto-update-settle", "5s"]).unwrap(),
            (Some(Duration::from_secs(1)), Duration::from_secs(5))
        );
        for bad in ["0s", "500ms", "soon"] {
            assert!(of(&["--auto-update", bad]).is_err(), "{bad:?} taken");
            assert!(of(&["--auto-update-settle", bad]).is_err(), "{bad:?} taken");
        }
    }

    #[test]
    fn log_rotation_flags_take_the_kubelets_values_under_supervise_only() {
        let cli = Cli::parse_from(["podrun", "apply", "p.yaml", "--supervise"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!((a.container_log_max_size, a.container_log_max_files), (10 * 1024 * 1024, 5));
        assert_eq!(a.container_log_monitor_interval, Duration::from_secs(10));
        let cli = Cli::parse_from(["podrun", "apply", "p.yaml", "--supervise", "--container-log-max-size", "500Ki"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!(a.container_log_max_size, 500 * 1024);
        for bad in [
            &["--container-log-max-files", "3"][..],
            &["--supervise", "--container-log-max-files", "1"],
            &["--supervise", "--container-log-max-size", "0"],
            &["--supervise", "--container-log-max-size", "-1Mi"],
            &["--supervise", "--container-log-monitor-interval", "0s"],
        ] {
            let args = ["podrun", "apply", "p.yaml"].into_iter().chain(bad.iter().copied());
            assert!(Cli::try_parse_from(args).is_err(), "{bad:?} taken");
        }
    }

    #[test]
    fn apply_defaults_are_the_kubelet_run_once_values() {
        let cli = Cli::parse_from(["podrun", "apply", "pod.yaml"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!(a.retries, 10);
        assert_eq!(a.retry_delay, Duration::from_secs(1));
        assert!((a.backoff - 2.0).abs() < f64::EPSILON);
        assert_eq!(a.timeout, Duration::from_secs(300));
        assert_eq!(a.manifest.paths(), ["pod.yaml"]);
        let cli = Cli::parse_from(["podrun", "apply", "-f", "-"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!(a.manifest.paths(), ["-"]);
        let cli = Cli::parse_from(["podrun", "apply", "a.yaml", "b.yaml", "--prune"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!(a.manifest.paths(), ["a.yaml", "b.yaml"]);
        assert!(a.prune && a.dry_run() == DryRunArg::None);
        assert!(!a.rm && !a.logs && a.exit_code_from.is_none());
        let cli = Cli::parse_from(["podrun", "apply", "x", "--rm", "--logs", "--exit-code-from", "app"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert!(a.rm && a.logs);
        assert_eq!(a.exit_code_from.as_deref(), Some("app"));
        assert!(!a.abort_on_container_exit, "implied by --exit-code-from, not set");
        let cli = Cli::parse_from(["podrun", "apply", "x", "--abort-on-container-exit"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert!(a.abort_on_container_exit);
        assert!(Cli::try_parse_from(["podrun", "apply", "x", "--abort-on-container-exit", "--supervise"]).is_err());
    }

    #[test]
    fn wait_takes_pods_or_a_selection_and_apply_s_deadline() {
        let cli = Cli::parse_from(["podrun", "wait", "a", "b", "--for", "ready"]);
        let Command::Wait(w) = cli.command else { panic!("not wait") };
        assert_eq!(w.pods, ["a", "b"]);
        assert_eq!(
            (w.wait_for, w.timeout, w.output),
            (Some(WaitForSpec::State(WaitUntilArg::Ready)), Duration::from_secs(300), OutputArg::Text)
        );
        let cli = Cli::parse_from(["podrun", "wait", "a", "--for=condition=Ready=false"]);
        let Command::Wait(w) = cli.command else { panic!("not wait") };
        assert_eq!(w.wait_for, Some(WaitForSpec::Condition { type_: "Ready", status: "False" }));
        let cli = Cli::parse_from(["podrun", "wait", "a", "--for", "delete"]);
        let Command::Wait(w) = cli.command else { panic!("not wait") };
        assert_eq!(w.wait_for, Some(WaitForSpec::Delete));
        let cli = Cli::parse_from(["podrun", "wait", "-l", "app=web", "-n", "ns", "--timeout", "90s"]);
        let Command::Wait(w) = cli.command else { panic!("not wait") };
        assert!(w.pods.is_empty() && !w.all && w.selector.is_some() && w.wait_for.is_none());
        assert_eq!((w.namespace.as_deref(), w.timeout), (Some("ns"), Duration::from_secs(90)));
        let cli = Cli::parse_from(["podrun", "wait", "--all", "--for", "complete", "-o", "json"]);
        let Command::Wait(w) = cli.command else { panic!("not wait") };
        assert!(w.all && w.wait_for == Some(WaitForSpec::State(WaitUntilArg::Complete)) && w.output == OutputArg::Json);
    }

    #[test]
    fn dry_run_takes_kubectls_values_and_the_bare_flag_is_server() {
        let apply = |extra: &[&str]| {
            let args = ["podrun", "apply", "x"].into_iter().chain(extra.iter().copied());
            Cli::try_parse_from(args).map(|cli| match cli.command {
                Command::Apply(a) => a.dry_run(),
                _ => panic!("not apply"),
            })
        };
        assert_eq!(apply(&[]).unwrap(), DryRunArg::None);
        assert_eq!(apply(&["--dry-run"]).unwrap(), DryRunArg::Server, "as before kubectl's values");
        assert_eq!(apply(&["--dry-run=server"]).unwrap(), DryRunArg::Server);
        assert_eq!(apply(&["--dry-run=client"]).unwrap(), DryRunArg::Client);
        assert_eq!(apply(&["--dry-run=none"]).unwrap(), DryRunArg::None);
        assert!(apply(&["--dry-run=yes"]).is_err());
        let cli = Cli::parse_from(["podrun", "delete", "a", "b", "--dry-run=client"]);
        let Command::Delete(d) = cli.command else { panic!("not delete") };
        assert_eq!((d.target, d.dry_run), (vec!["a".to_owned(), "b".to_owned()], Some(DryRunArg::Client)));
        let cli = Cli::parse_from(["podrun", "delete", "pod", "a", "--dry-run"]);
        let Command::Delete(d) = cli.command else { panic!("not delete") };
        assert_eq!(d.dry_run, Some(DryRunArg::Server));
    }

    #[test]
    fn filename_repeats_and_recursive_is_r() {
        let cli = Cli::parse_from(["podrun", "apply", "-f", "a.yaml", "-f", "b.yaml", "-R"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!(a.manifest.paths(), ["a.yaml", "b.yaml"]);
        assert!(a.manifest.recursive);
        let cli = Cli::parse_from(["podrun", "validate", "--filename", "a", "-f", "b", "--recursive"]);
        let Command::Validate(v) = cli.command else { panic!("not validate") };
        assert_eq!((v.manifest.paths(), v.manifest.recursive), (vec!["a".to_owned(), "b".to_owned()], true));
        let cli = Cli::parse_from(["podrun", "delete", "-f", "a", "-f", "d", "-R"]);
        let Command::Delete(d) = cli.command else { panic!("not delete") };
        assert_eq!((d.filename, d.recursive), (vec!["a".to_owned(), "d".to_owned()], true));
    }

    #[test]
    fn top_pod_takes_kubectls_words_and_flags() {
        for word in ["pod", "pods", "po"] {
            let cli = Cli::parse_from(["podrun", "top", word, "web", "-n", "ns", "--containers", "--no-headers"]);
            let Command::Top(t) = cli.command else { panic!("not top pod") };
            assert_eq!((t.pod.as_deref(), t.namespace.as_deref()), (Some("web"), Some("ns")));
            assert!(t.containers && t.no_headers && !t.all_namespaces);
        }
        let cli = Cli::parse_from(["podrun", "top", "pod", "-A", "-l", "app=web"]);
        let Command::Top(t) = cli.command else { panic!("not top pod") };
        assert!(t.all_namespaces && t.selector.is_some() && t.pod.is_none());
        for bad in [&["top"][..], &["top", "node"], &["top", "pod", "web", "-A"], &["top", "pod", "-A", "-n", "x"]] {
            let args = ["podrun"].into_iter().chain(bad.iter().copied());
            assert!(Cli::try_parse_from(args).is_err(), "{bad:?} taken");
        }
    }

    #[test]
    fn validate_takes_several_files_and_configs() {
        let cli =
            Cli::parse_from(["podrun", "validate", "a.yaml", "b.yaml", "--config", "c.yaml", "--config", "d.yaml"]);
        let Command::Validate(v) = cli.command else { panic!("not validate") };
        assert_eq!(v.manifest.paths(), ["a.yaml", "b.yaml"]);
        assert_eq!(v.configs, ["c.yaml", "d.yaml"]);
        let cli = Cli::parse_from(["podrun", "apply", "a.yaml", "--config", "c.yaml"]);
        let Command::Apply(a) = cli.command else { panic!("not apply") };
        assert_eq!(a.configs, ["c.yaml"]);
        let cli = Cli::parse_from(["podrun", "validate", "-f", "dir"]);
        let Command::Validate(v) = cli.command else { panic!("not validate") };
        assert_eq!(v.manifest.paths(), ["dir"], "as apply takes it");
    }

    #[test]
    fn validate_takes_kubectls_values_and_the_bare_flag_is_strict() {
        let of = |args: &[&str]| {
            let mut argv = vec!["podrun", "apply"];
            argv.extend_from_slice(args);
            match Cli::try_parse_from(argv).map(|c| c.command) {
                Ok(Command::Apply(a)) => Ok(a.field_validation()),
                Ok(_) => unreachable!("apply parses as apply"),
                Err(e) => Err(e.kind()),
            }
        };
        assert_eq!(of(&["x"]), Ok(ValidateArg::Strict), "strict by default, as kubectl");
        assert_eq!(of(&["x", "--supervise"]), Ok(ValidateArg::Warn), "a kubelet's file source drops them");
        assert_eq!(of(&["x", "--supervise", "--validate"]), Ok(ValidateArg::Strict));
        assert_eq!(of(&["x", "--validate"]), Ok(ValidateArg::Strict));
        assert_eq!(of(&["--validate", "x"]), Ok(ValidateArg::Strict), "x is the file, not the flag's value");
        assert_eq!(of(&["x", "--validate=warn"]), Ok(ValidateArg::Warn));
        assert_eq!(of(&["x", "--validate=ignore"]), Ok(ValidateArg::Ignore));
        assert_eq!(of(&["x", "--validate=false"]), Ok(ValidateArg::Ignore));
        assert_eq!(of(&["x", "--validate=true"]), Ok(ValidateArg::Strict));
        assert!(of(&["x", "--validate=loose"]).is_err());
        let cli = Cli::parse_from(["podrun", "validate", "x", "--validate=warn", "--strict"]);
        let Command::Validate(v) = cli.command else { panic!("not validate") };
        assert_eq!((v.validate, v.strict), (ValidateArg::Warn, true), "two flags, two meanings");
        assert_eq!(FieldValidation::from(ValidateArg::Warn), FieldValidation::Warn);
    }

    #[test]
    fn bad_values_are_usage_errors() {
        for args in [
            vec!["podrun", "apply", "x", "--timeout", "soon"],
            vec!["podrun", "apply", "x", "--backoff", "0.5"],
            vec!["podrun", "apply"],
            vec!["podrun", "apply", "x", "-f", "y"],
            vec!["podrun", "apply", "-f", "y", "--prune"],
            vec!["podrun", "apply", "x", "--dry-run", "--prune"],
            vec!["podrun", "apply", "x", "--wait-for", "ready-ish"],
            vec!["podrun", "validate"],
            vec!["podrun", "validate", "x", "--config"],
            vec!["podrun", "get", "-A", "-n", "x"],
            vec!["podrun", "get", "-o", "go-template={{.a}}"],
            vec!["podrun", "wait", "p", "--for", "jsonpath={.a}="],
            vec!["podrun", "logs"],
            vec!["podrun", "logs", "p", "-c", "a", "--all-containers"],
            vec!["podrun", "logs", "p", "--since", "soon"],
            vec!["podrun", "wait"],
            vec!["podrun", "wait", "p", "--all"],
            vec!["podrun", "wait", "p", "-l", "app=x"],
            vec!["podrun", "wait", "--all", "-l", "app=x"],
            vec!["podrun", "wait", "p", "--for", "none"],
            vec!["podrun", "wait", "p", "--timeout", "soon"],
        ] {
            assert!(Cli::try_parse_from(&args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn namespaces_are_dns_1123_labels_for_every_command() {
        let commands: [&[&str]; 7] = [
            &["wait", "p"],
            &["apply", "x"],
            &["validate", "x"],
            &["delete", "p"],
            &["get"],
            &["logs", "p"],
            &["exec", "p", "--", "true"],
        ];
        for command in commands {
            for (ns, ok) in [
                ("default", true),
                ("a", true),
                ("123-abc", true),
                (&"a".repeat(63), true),
                ("../../etc", false),
                ("", false),
                ("Bad_NS", false),
                ("a.b", false),
                ("-a", false),
                ("a-", false),
                (&"a".repeat(64), false),
            ] {
                let mut args = vec!["podrun", command[0], "-n", ns];
                args.extend_from_slice(&command[1..]);
                let parsed = Cli::try_parse_from(&args);
                assert_eq!(parsed.is_ok(), ok, "{args:?}: {:?}", parsed.err().map(|e| e.to_string()));
                if let Err(e) = parsed {
                    assert_eq!(e.exit_code(), 2);
                }
            }
        }
        let e = Cli::try_parse_from(["podrun", "apply", "x", "-n", "Bad_NS"]).unwrap_err().to_string();
        assert!(e.contains("a lowercase RFC 1123 label must consist of lower case alphanumeric characters"), "{e}");
        let e = Cli::try_parse_from(["podrun", "get", "-n", "a.b"]).unwrap_err().to_string();
        assert!(e.contains("must not contain dots"), "{e}");
        let e = Cli::try_parse_from(["podrun", "get", "-n", &"a".repeat(64)]).unwrap_err().to_string();
        assert!(e.contains("must be no more than 63 characters"), "{e}");
    }
}
