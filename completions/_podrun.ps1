
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
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'List the events of the pods podrun runs, as `kubectl events` does')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'Show pods in detail with their events, as `kubectl describe pod` does')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a container of a pod, as `kubectl exec` does')
            [CompletionResult]::new('cp', 'cp', [CompletionResultType]::ParameterValue, 'Copy files and directories to and from containers, as `kubectl cp` does')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove podrun''s dead containers and leftover files, as the kubelet''s container GC does')
            [CompletionResult]::new('top', 'top', [CompletionResultType]::ParameterValue, 'Show the CPU and memory of pods now, as `kubectl top pod` does')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for a shell on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, podrun(1), on stdout')
            [CompletionResult]::new('__complete', '__complete', [CompletionResultType]::ParameterValue, 'The pod or container names that fit the last of WORDS (the words of a command line being completed); for the completion scripts')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'podrun;apply' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory or URL (as kubectl takes it; repeatable)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory or URL (as kubectl takes it; repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header for URL manifests, as the kubelet''s --manifest-url-header')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Overall deadline (e.g. 90s, 5m)')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How many times to repair the pod (restart, recreate) after the first sync')
            [CompletionResult]::new('--retry-delay', '--retry-delay', [CompletionResultType]::ParameterName, 'Wait before the first repair; later waits grow by --backoff')
            [CompletionResult]::new('--backoff', '--backoff', [CompletionResultType]::ParameterName, 'Factor by which the wait grows after each repair')
            [CompletionResult]::new('--crash-backoff', '--crash-backoff', [CompletionResultType]::ParameterName, 'Wait before restarting a crashed container the second time')
            [CompletionResult]::new('--crash-backoff-max', '--crash-backoff-max', [CompletionResultType]::ParameterName, 'The longest wait between restarts of a crashing container')
            [CompletionResult]::new('--min-uptime', '--min-uptime', [CompletionResultType]::ParameterName, 'How long a container must have been up before it counts as running')
            [CompletionResult]::new('--exit-code-from', '--exit-code-from', [CompletionResultType]::ParameterName, 'Exit with this container''s exit code; implies --abort-on-container-exit')
            [CompletionResult]::new('--wait-for', '--wait-for', [CompletionResultType]::ParameterName, 'What to wait for')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the result on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format of the result on stdout')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, 'Attach pods to this user-defined engine network (so static pods reach each other by name)')
            [CompletionResult]::new('--infra-image', '--infra-image', [CompletionResultType]::ParameterName, 'Image for the pod''s infra container [default: podrun''s own, built locally]')
            [CompletionResult]::new('--pull', '--pull', [CompletionResultType]::ParameterName, 'Override every container''s imagePullPolicy for this run')
            [CompletionResult]::new('--image-pull-credentials-verification-policy', '--image-pull-credentials-verification-policy', [CompletionResultType]::ParameterName, 'Which images on the node a pod must be shown to be allowed before it uses them, as the kubelet''s imagePullCredentialsVerificationPolicy')
            [CompletionResult]::new('--preloaded-images-verification-allowlist', '--preloaded-images-verification-allowlist', [CompletionResultType]::ParameterName, 'Images anyone may use under NeverVerifyAllowlistedImages, comma-separated')
            [CompletionResult]::new('--node-ip', '--node-ip', [CompletionResultType]::ParameterName, 'The node''s IP addresses, the pods'' hostIP and hostIPs, as the kubelet''s --node-ip')
            [CompletionResult]::new('--allowed-unsafe-sysctls', '--allowed-unsafe-sysctls', [CompletionResultType]::ParameterName, 'Sysctls a pod may set beyond the safe ones, as the kubelet''s --allowed-unsafe-sysctls')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Fields Kubernetes does not know: strict, warn or ignore, as kubectl''s --validate')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A file of ConfigMaps and Secrets the pods refer to (repeatable)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Change nothing: server (the bare flag), client or none')
            [CompletionResult]::new('--container-log-max-size', '--container-log-max-size', [CompletionResultType]::ParameterName, 'CRI runtimes: rotate a container''s log once it is this large (500Ki, 10Mi)')
            [CompletionResult]::new('--container-log-max-files', '--container-log-max-files', [CompletionResultType]::ParameterName, 'CRI runtimes: the most files a container''s log is kept in (at least 2)')
            [CompletionResult]::new('--container-log-monitor-interval', '--container-log-monitor-interval', [CompletionResultType]::ParameterName, 'CRI runtimes: how often the containers'' logs are looked at for rotation')
            [CompletionResult]::new('--auto-update', '--auto-update', [CompletionResultType]::ParameterName, 'Pull Always images again every INTERVAL and restart containers whose image moved')
            [CompletionResult]::new('--auto-update-settle', '--auto-update-settle', [CompletionResultType]::ParameterName, 'How long an auto-updated container must run before its update counts')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories recursively: the manifests of their subdirectories too (sorted; links to directories are not followed)')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories recursively: the manifests of their subdirectories too (sorted; links to directories are not followed)')
            [CompletionResult]::new('--cleanup-on-failure', '--cleanup-on-failure', [CompletionResultType]::ParameterName, 'Remove what this run created when the pod fails or the run is interrupted')
            [CompletionResult]::new('--rm', '--rm', [CompletionResultType]::ParameterName, 'Remove the pods when podrun exits: after completion, failure or interrupt')
            [CompletionResult]::new('--logs', '--logs', [CompletionResultType]::ParameterName, 'Show the containers'' output on stdout while waiting')
            [CompletionResult]::new('--abort-on-container-exit', '--abort-on-container-exit', [CompletionResultType]::ParameterName, 'Stop the pod when an app container ends for good, as `docker compose up` does')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse Kubernetes fields podrun ignores')
            [CompletionResult]::new('--seccomp-default', '--seccomp-default', [CompletionResultType]::ParameterName, 'Run containers without a seccompProfile under the engine''s default (RuntimeDefault)')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'After applying, delete podrun''s pods that no longer have a manifest here')
            [CompletionResult]::new('--supervise', '--supervise', [CompletionResultType]::ParameterName, 'Stay after the first pass and keep repairing the pods, as a kubelet does')
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
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory or URL (as kubectl takes it; repeatable)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory or URL (as kubectl takes it; repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header for URL manifests, as the kubelet''s --manifest-url-header')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'A file of ConfigMaps and Secrets the pods refer to (repeatable)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for pods whose manifest names none')
            [CompletionResult]::new('--pull', '--pull', [CompletionResultType]::ParameterName, 'Override every container''s imagePullPolicy for this run: always (Always), missing (IfNotPresent) or never (Never)')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Fields Kubernetes does not know, as kubectl has it: strict refuses them; warn drops each with a warning naming its place; ignore drops them silently, as a kubelet''s file source does (true and false stand for strict and ignore)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories recursively: the manifests of their subdirectories too (sorted; links to directories are not followed)')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories recursively: the manifests of their subdirectories too (sorted; links to directories are not followed)')
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
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file, directory or URL whose pods to delete (repeatable)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file, directory or URL whose pods to delete (repeatable)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Delete nothing: server (the bare flag) finds the pods in the engine and says which would be deleted; client only says the pods named (no engine); none is off')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: the manifest''s, or default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: the manifest''s, or default]')
            [CompletionResult]::new('--grace-period', '--grace-period', [CompletionResultType]::ParameterName, 'Seconds to wait after SIGTERM before SIGKILL [default: the pod''s terminationGracePeriodSeconds]')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'An HTTP header sent with every request for a URL manifest (repeatable; the value is never printed)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every pod podrun runs in the namespace (-n, default: default)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Grace period 0: SIGKILL at once, without preStop hooks')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories recursively: the manifests of their subdirectories too')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories recursively: the manifests of their subdirectories too')
            [CompletionResult]::new('--ignore-not-found', '--ignore-not-found', [CompletionResultType]::ParameterName, 'A pod named that does not exist is not an error, as kubectl''s flag')
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
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: the table, the table with IP and IMAGES (wide), the Pod (one POD) or a List of Pods (json, yaml), pod/NAME lines (name), or kubectl''s jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=HEADER:PATH,... and custom-columns-file=FILE')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: the table, the table with IP and IMAGES (wide), the Pod (one POD) or a List of Pods (json, yaml), pod/NAME lines (name), or kubectl''s jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=HEADER:PATH,... and custom-columns-file=FILE')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'A column per label KEY, headed by the key upper-cased')
            [CompletionResult]::new('--label-columns', '--label-columns', [CompletionResultType]::ParameterName, 'A column per label KEY, headed by the key upper-cased')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort the pods by the value at this JSONPath (e.g. .metadata.name, ''{.status.containerStatuses[0].restartCount}''), as kubectl does')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'What to wait for: running, ready, complete, condition=TYPE[=STATUS], delete or jsonpath=''{PATH}''[=VALUE]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Overall deadline (e.g. 90s, 5m)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format of the result on stdout (json: the List of Pod objects `get -o json` gives)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format of the result on stdout (json: the List of Pod objects `get -o json` gives)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
        'podrun;events' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'Only the events of this pod: pod/NAME (or NAME)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: an EventList of core/v1 Events [default: the table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: an EventList of core/v1 Events [default: the table]')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Events of every namespace, with a NAMESPACE column')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Events of every namespace, with a NAMESPACE column')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'After the events so far, print each new one (or a repeat) as it comes, until interrupted')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'After the events so far, print each new one (or a repeat) as it comes, until interrupted')
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
        'podrun;describe' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'The pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'The pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The pods of a manifest file (or directory)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The pods of a manifest file (or directory)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
        'podrun;exec' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
        'podrun;cp' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'The container [default: the pod''s default container]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pod [default: default]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'Set number of retries to complete a copy operation from a container. Specify 0 to disable or any negative value for infinite retrying')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('--no-preserve', '--no-preserve', [CompletionResultType]::ParameterName, 'The copied file/directory''s ownership and permissions will not be preserved in the container')
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
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
        'podrun;top' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the pods [default: default]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Only the pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]')
            [CompletionResult]::new('--tlscacert', '--tlscacert', [CompletionResultType]::ParameterName, 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]')
            [CompletionResult]::new('--tlscert', '--tlscert', [CompletionResultType]::ParameterName, 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]')
            [CompletionResult]::new('--tlskey', '--tlskey', [CompletionResultType]::ParameterName, 'Client certificate''s key for TLS [default: key.pem beside ca.pem, if there]')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Pods of every namespace, with a NAMESPACE column')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Pods of every namespace, with a NAMESPACE column')
            [CompletionResult]::new('--containers', '--containers', [CompletionResultType]::ParameterName, 'A row per container: POD, NAME, CPU(cores), MEMORY(bytes)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'No header line')
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
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
        'podrun;__complete' {
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)')
            [CompletionResult]::new('--runtime-endpoint', '--runtime-endpoint', [CompletionResultType]::ParameterName, 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it')
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
            [CompletionResult]::new('events', 'events', [CompletionResultType]::ParameterValue, 'List the events of the pods podrun runs, as `kubectl events` does')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'Show pods in detail with their events, as `kubectl describe pod` does')
            [CompletionResult]::new('exec', 'exec', [CompletionResultType]::ParameterValue, 'Run a command in a container of a pod, as `kubectl exec` does')
            [CompletionResult]::new('cp', 'cp', [CompletionResultType]::ParameterValue, 'Copy files and directories to and from containers, as `kubectl cp` does')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove podrun''s dead containers and leftover files, as the kubelet''s container GC does')
            [CompletionResult]::new('top', 'top', [CompletionResultType]::ParameterValue, 'Show the CPU and memory of pods now, as `kubectl top pod` does')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the completion script for a shell on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, podrun(1), on stdout')
            [CompletionResult]::new('__complete', '__complete', [CompletionResultType]::ParameterValue, 'The pod or container names that fit the last of WORDS (the words of a command line being completed); for the completion scripts')
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
        'podrun;help;events' {
            break
        }
        'podrun;help;describe' {
            break
        }
        'podrun;help;exec' {
            break
        }
        'podrun;help;cp' {
            break
        }
        'podrun;help;gc' {
            break
        }
        'podrun;help;top' {
            break
        }
        'podrun;help;completions' {
            break
        }
        'podrun;help;man' {
            break
        }
        'podrun;help;__complete' {
            break
        }
        'podrun;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
