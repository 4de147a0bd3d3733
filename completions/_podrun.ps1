
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'podrun' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'podrun'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'podrun' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Start a pod from a manifest and wait until it runs (or completes)')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check manifests as apply would, without a container engine')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Stop and remove the containers podrun created for a pod')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'List the pods podrun runs, as `kubectl get pods` does')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until pods podrun runs are running, ready or complete, as `kubectl wait` does')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print a container''s output, as `kubectl logs` does')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a container of a pod, as `kubectl exec` does')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove podrun''s dead containers and leftover files, as the kubelet''s container GC does')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for a shell on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, podrun(1), on stdout')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'podrun;apply' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file (as kubectl takes it)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file (as kubectl takes it)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header sent with every request for a URL manifest, as the kubelet''s --manifest-url-header (repeatable; the value is never printed)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Overall deadline (e.g. 90s, 5m)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How many times to repair the pod (restart, recreate) after the first sync')
            [CompletionResult]::new('--retry-delay', '--retry-delay', [CompletionResultType]::ParameterName, 'Wait before the first repair; later waits grow by --backoff')
            [CompletionResult]::new('--backoff', '--backoff', [CompletionResultType]::ParameterName, 'Factor by which the wait grows after each repair')
            [CompletionResult]::new('--crash-backoff', '--crash-backoff', [CompletionResultType]::ParameterName, 'Wait before restarting a crashed container the second time; it doubles each restart (the first restart is immediate)')
            [CompletionResult]::new('--crash-backoff-max', '--crash-backoff-max', [CompletionResultType]::ParameterName, 'The longest wait between restarts of a crashing container')
            [CompletionResult]::new('--min-uptime', '--min-uptime', [CompletionResultType]::ParameterName, 'How long a container must have been up (from its start as the engine records it) before it counts as running; a container restarted after a crash must stay up five times as long. 0 counts a container as running as soon as the engine says it runs')
            [CompletionResult]::new('--exit-code-from', '--exit-code-from', [CompletionResultType]::ParameterName, 'Exit with this container''s exit code (its last termination) once the run ends successfully or this container failed; implies --abort-on-container-exit')
            [CompletionResult]::new('--wait-for', '--wait-for', [CompletionResultType]::ParameterName, 'What to wait for [default: each container by its restart policy (its own, else the pod''s): running when every exit is restarted, complete otherwise]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the result on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format of the result on stdout')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Attach pods to this user-defined engine network (so static pods reach each other by name)')
            [CompletionResult]::new('--infra-image', '--infra-image', [CompletionResultType]::ParameterName, 'Image for the pod''s infra container [default: podrun''s own, built locally]')
            [CompletionResult]::new('--pull', '--pull', [CompletionResultType]::ParameterName, 'Override every container''s imagePullPolicy for this run: always (Always), missing (IfNotPresent) or never (Never)')
            [CompletionResult]::new('--allowed-unsafe-sysctls', '--allowed-unsafe-sysctls', [CompletionResultType]::ParameterName, 'Sysctls a pod may set beyond the safe ones, as the kubelet''s --allowed-unsafe-sysctls: names or prefixes ending in * (kernel.msg*), comma-separated; only sysctls the kernel keeps per pod (net.*, kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*). Any other is refused before anything is created (SysctlForbidden)')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Fields Kubernetes does not know, as kubectl has it: strict refuses them; warn drops each with a warning naming its place; ignore drops them silently, as a kubelet''s file source does (true and false stand for strict and ignore). Default: strict, and warn under --supervise, which keeps pods as a kubelet keeps its static pods')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A file of ConfigMaps and Secrets the pods refer to (repeatable)')
            [CompletionResult]::new('--container-log-max-size', '--container-log-max-size', [CompletionResultType]::ParameterName, 'Under --supervise on a CRI runtime, a container''s log is rotated once it is this large (a quantity: 500Ki, 10Mi), as the kubelet''s --container-log-max-size')
            [CompletionResult]::new('--container-log-max-files', '--container-log-max-files', [CompletionResultType]::ParameterName, 'Under --supervise on a CRI runtime, the most files a container''s log is kept in, the one being written included (at least 2), as the kubelet''s --container-log-max-files')
            [CompletionResult]::new('--container-log-monitor-interval', '--container-log-monitor-interval', [CompletionResultType]::ParameterName, 'Under --supervise on a CRI runtime, how often the containers'' logs are looked at for rotation, as the kubelet''s containerLogMonitorInterval')
            [CompletionResult]::new('--auto-update', '--auto-update', [CompletionResultType]::ParameterName, 'Under --supervise, every INTERVAL the images of containers pulled Always are pulled again, and a container whose image moved is restarted on it (rolled back when it fails within --auto-update-settle); `off` (the default) leaves them, as a kubelet does. At least 1s')
            [CompletionResult]::new('--auto-update-settle', '--auto-update-settle', [CompletionResultType]::ParameterName, 'How long a container updated by --auto-update must start, run without restarting and (with a readiness probe) be ready before its update counts; else it is rolled back. At least 1s')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--cleanup-on-failure', '--cleanup-on-failure', [CompletionResultType]::ParameterName, 'Remove what this run created when the pod fails or the run is interrupted')
            [CompletionResult]::new('--rm', '--rm', [CompletionResultType]::ParameterName, 'Remove the pods (their containers and podrun''s files for them) when podrun exits: after completion, failure or interrupt')
            [CompletionResult]::new('--logs', '--logs', [CompletionResultType]::ParameterName, 'Show the containers'' output (init containers too) on stdout while waiting, each line prefixed with its container''s name')
            [CompletionResult]::new('--abort-on-container-exit', '--abort-on-container-exit', [CompletionResultType]::ParameterName, 'Once an app container has terminated for good (its restart policy will not start it again), stop the pod''s other containers within their grace periods and exit with that container''s exit code, as `docker compose up --abort-on-container-exit`; implies --wait-for complete. The manifest must hold one pod')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse Kubernetes fields podrun ignores (not yet implemented, or only meaningful on a cluster)')
            [CompletionResult]::new('--seccomp-default', '--seccomp-default', [CompletionResultType]::ParameterName, 'Run containers for which neither the pod nor the container sets a seccompProfile under the engine''s default profile (RuntimeDefault), as a kubelet with seccompDefault does; without it they run Unconfined, as under a kubelet''s default settings')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'After applying, delete podrun''s pods that no longer have a manifest among the given files or directories, in the namespaces those manifests use (and -n); never others')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what apply would do to each pod (containers to create, recreate, start, stop or remove, images to pull) and change nothing')
            [CompletionResult]::new('--supervise', '--supervise', [CompletionResultType]::ParameterName, 'After the first pass, stay and keep repairing the pods as a kubelet does (restarts with CrashLoopBackOff, lost containers recreated), until SIGINT or SIGTERM (then exit 0, leaving the pods running). Tells systemd when the first pass is done (Type=notify). Changed manifests are applied again (checked every 20 s, and on SIGHUP)')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;validate' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file (as kubectl takes it)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file (as kubectl takes it)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header sent with every request for a URL manifest, as the kubelet''s --manifest-url-header (repeatable; the value is never printed)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A file of ConfigMaps and Secrets the pods refer to (repeatable)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--pull', '--pull', [CompletionResultType]::ParameterName, 'Override every container''s imagePullPolicy for this run: always (Always), missing (IfNotPresent) or never (Never)')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Fields Kubernetes does not know, as kubectl has it: strict refuses them; warn drops each with a warning naming its place; ignore drops them silently, as a kubelet''s file source does (true and false stand for strict and ignore)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse Kubernetes fields podrun ignores (not yet implemented, or only meaningful on a cluster)')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;delete' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, as kubectl''s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, as kubectl''s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'With --wait=false: no preStop hooks, no grace period; each container is removed with force (the engine kills it), and podrun returns once the engine has removed them')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file whose pods to delete')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file whose pods to delete')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: the manifest''s, or default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: the manifest''s, or default]')
            [CompletionResult]::new('--grace-period', '--grace-period', [CompletionResultType]::ParameterName, 'Seconds to wait after SIGTERM before SIGKILL [default: the pod''s terminationGracePeriodSeconds]')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header sent with every request for a URL manifest (repeatable; the value is never printed)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every pod podrun runs in the namespace (-n, default: default)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Grace period 0: SIGKILL at once, without preStop hooks')
            [CompletionResult]::new('--delete-volumes', '--delete-volumes', [CompletionResultType]::ParameterName, 'Also remove the engine volumes of the pods'' persistentVolumeClaims (kept otherwise, as a claim outlives its pod)')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;get' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, as kubectl''s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, as kubectl''s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: the table, the table with IP and IMAGES (wide), or the Pod (one POD) or a List of Pods (json, yaml)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: the table, the table with IP and IMAGES (wide), or the Pod (one POD) or a List of Pods (json, yaml)')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'A column per label KEY, headed by the key upper-cased')
            [CompletionResult]::new('--label-columns', '--label-columns', [CompletionResultType]::ParameterName, 'A column per label KEY, headed by the key upper-cased')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Pods of every namespace, with a NAMESPACE column')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Pods of every namespace, with a NAMESPACE column')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'The table without its header line')
            [CompletionResult]::new('--show-labels', '--show-labels', [CompletionResultType]::ParameterName, 'A LABELS column: each pod''s labels, KEY=VALUE comma-joined')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'After the table, a line for each pod whose row changes, until interrupted')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'After the table, a line for each pod whose row changes, until interrupted')
            [CompletionResult]::new('--watch-only', '--watch-only', [CompletionResultType]::ParameterName, 'As --watch, without the table first')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;wait' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, as kubectl''s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, as kubectl''s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'What to wait for [default: as apply, each container by its restart policy: running when every exit is restarted, complete otherwise]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Overall deadline (e.g. 90s, 5m)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the result on stdout (json: the List of Pod objects `get -o json` gives)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format of the result on stdout (json: the List of Pod objects `get -o json` gives)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every pod podrun runs in the namespace (-n, default: default)')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;logs' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'The pods whose labels match, as get -l; each one''s output (the last 10 lines unless --tail says), as kubectl logs -l')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'The pods whose labels match, as get -l; each one''s output (the last 10 lines unless --tail says), as kubectl logs -l')
            [CompletionResult]::new('--max-log-requests', '--max-log-requests', [CompletionResultType]::ParameterName, 'With -l and -f: the most containers followed at once')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'Only the last N lines')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only output newer than this (e.g. 10s, 5m)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Keep printing output as it is written, until the container stops')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing output as it is written, until the container stops')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The output of the instance before the last restart')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'The output of the instance before the last restart')
            [CompletionResult]::new('--timestamps', '--timestamps', [CompletionResultType]::ParameterName, 'Start each line with its RFC 3339 timestamp')
            [CompletionResult]::new('--all-containers', '--all-containers', [CompletionResultType]::ParameterName, 'Every container of the pod, init containers first')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, 'Start each line with its source, `[pod/POD/CONTAINER] `')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;exec' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Pass standard input to the command')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Pass standard input to the command')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Give the command a terminal (with -i, when standard input is one)')
            [CompletionResult]::new('--tty', '--tty', [CompletionResultType]::ParameterName, 'Give the command a terminal (with -i, when standard input is one)')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;gc' {
            [CompletionResult]::new('--max-dead', '--max-dead', [CompletionResultType]::ParameterName, 'Dead instances kept per pod container (besides the newest instance), for lastState and `logs --previous`')
            [CompletionResult]::new('--min-age', '--min-age', [CompletionResultType]::ParameterName, 'Only remove what finished (or, for files, changed) at least this long ago')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be removed, and remove nothing')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;completions' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;man' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address (unix:///path, tcp://host:port or ssh://[user@]host[:port]) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path), as crictl takes it: containerd or CRI-O instead of the Docker API [default: $CONTAINER_RUNTIME_ENDPOINT; with no engine named and no Docker socket, the first of containerd''s and CRI-O''s sockets found]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tls', '--tls', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]')
            [CompletionResult]::new('--tlsverify', '--tlsverify', [CompletionResultType]::ParameterName, 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Show only warnings and errors (and `-o json` output)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more: -v shows each action podrun takes, -vv adds debug logs')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'podrun;help' {
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Start a pod from a manifest and wait until it runs (or completes)')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check manifests as apply would, without a container engine')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Stop and remove the containers podrun created for a pod')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'List the pods podrun runs, as `kubectl get pods` does')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until pods podrun runs are running, ready or complete, as `kubectl wait` does')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print a container''s output, as `kubectl logs` does')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a container of a pod, as `kubectl exec` does')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove podrun''s dead containers and leftover files, as the kubelet''s container GC does')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for a shell on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, podrun(1), on stdout')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'podrun;help;apply' {
            break
        }
        'podrun;help;validate' {
            break
        }
        'podrun;help;delete' {
            break
        }
        'podrun;help;get' {
            break
        }
        'podrun;help;wait' {
            break
        }
        'podrun;help;logs' {
            break
        }
        'podrun;help;exec' {
            break
        }
        'podrun;help;gc' {
            break
        }
        'podrun;help;completions' {
            break
        }
        'podrun;help;man' {
            break
        }
        'podrun;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
