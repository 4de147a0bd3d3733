# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_podrun_global_optspecs
    string join \n H/host= runtime-endpoint= context= tls tlsverify tlscacert= tlscert= tlskey= q/quiet v/verbose h/help V/version
end

function __fish_podrun_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_podrun_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_podrun_using_subcommand
    set -l cmd (__fish_podrun_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c podrun -n "__fish_podrun_needs_command" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_needs_command" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_needs_command" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_needs_command" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_needs_command" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_needs_command" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_needs_command" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_needs_command" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_needs_command" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_needs_command" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_needs_command" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "apply" -d 'Start a pod from a manifest and wait until it runs (or completes)'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "validate" -d 'Check manifests as apply would, without a container engine'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "delete" -d 'Stop and remove the containers podrun created for a pod'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "get" -d 'List the pods podrun runs, as `kubectl get pods` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "wait" -d 'Wait until pods podrun runs are running, ready or complete, as `kubectl wait` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "logs" -d 'Print a container\'s output, as `kubectl logs` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "events" -d 'List the events of the pods podrun runs, as `kubectl events` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "describe" -d 'Show pods in detail with their events, as `kubectl describe pod` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "exec" -d 'Run a command in a container of a pod, as `kubectl exec` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "cp" -d 'Copy files and directories to and from containers, as `kubectl cp` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "gc" -d 'Remove podrun\'s dead containers and leftover files, as the kubelet\'s container GC does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "top" -d 'Show the CPU and memory of pods now, as `kubectl top pod` does'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "completions" -d 'Print the completion script for a shell on stdout'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "man" -d 'Print the man page, podrun(1), on stdout'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "__complete" -d 'The pod or container names that fit the last of WORDS (the words of a command line being completed); for the completion scripts'
complete -c podrun -n "__fish_podrun_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s f -l filename -d 'Manifest file, directory or URL (as kubectl takes it; repeatable)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l header -d 'An HTTP header for URL manifests, as the kubelet\'s --manifest-url-header' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s n -l namespace -d 'Namespace for pods whose manifest names none' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l timeout -d 'Overall deadline (e.g. 90s, 5m)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l retries -d 'How many times to repair the pod (restart, recreate) after the first sync' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l retry-delay -d 'Wait before the first repair; later waits grow by --backoff' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l backoff -d 'Factor by which the wait grows after each repair' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l crash-backoff -d 'Wait before restarting a crashed container the second time' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l crash-backoff-max -d 'The longest wait between restarts of a crashing container' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l min-uptime -d 'How long a container must have been up before it counts as running' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l exit-code-from -d 'Exit with this container\'s exit code; implies --abort-on-container-exit' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l wait-for -d 'What to wait for' -r -f -a "running\t'Every container running (or completed with exit 0 where it is not restarted)'
complete\t'Every container terminated for good; success when all exited 0'
ready\t'Every container ready: its readiness probe passes (running, without one)'
none\t'Nothing: create and start the pod, then return'"
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s o -l output -d 'Output format of the result on stdout' -r -f -a "text\t''
json\t''"
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l network -d 'Attach pods to this user-defined engine network (so static pods reach each other by name)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l infra-image -d 'Image for the pod\'s infra container [default: podrun\'s own, built locally]' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l pull -d 'Override every container\'s imagePullPolicy for this run' -r -f -a "always\t''
missing\t''
never\t''"
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l image-pull-credentials-verification-policy -d 'Which images on the node a pod must be shown to be allowed before it uses them, as the kubelet\'s imagePullCredentialsVerificationPolicy' -r -f -a "NeverVerify\t''
NeverVerifyPreloadedImages\t''
NeverVerifyAllowlistedImages\t''
AlwaysVerify\t''"
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l preloaded-images-verification-allowlist -d 'Images anyone may use under NeverVerifyAllowlistedImages, comma-separated' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l node-ip -d 'The node\'s IP addresses, the pods\' hostIP and hostIPs, as the kubelet\'s --node-ip' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l allowed-unsafe-sysctls -d 'Sysctls a pod may set beyond the safe ones, as the kubelet\'s --allowed-unsafe-sysctls' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l validate -d 'Fields Kubernetes does not know: strict, warn or ignore, as kubectl\'s --validate' -r -f -a "strict\t''
warn\t''
ignore\t''"
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l config -d 'A file of ConfigMaps and Secrets the pods refer to (repeatable)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l dry-run -d 'Change nothing: server (the bare flag), client or none' -r -f -a "none\t'Off'
client\t'Check the manifests only; the engine is not contacted'
server\t'Ask the engine what would be done, and do nothing'"
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l container-log-max-size -d 'CRI runtimes: rotate a container\'s log once it is this large (500Ki, 10Mi)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l container-log-max-files -d 'CRI runtimes: the most files a container\'s log is kept in (at least 2)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l container-log-monitor-interval -d 'CRI runtimes: how often the containers\' logs are looked at for rotation' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l auto-update -d 'Pull Always images again every INTERVAL and restart containers whose image moved' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l auto-update-settle -d 'How long an auto-updated container must run before its update counts' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s R -l recursive -d 'Read directories recursively: the manifests of their subdirectories too (sorted; links to directories are not followed)'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l cleanup-on-failure -d 'Remove what this run created when the pod fails or the run is interrupted'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l rm -d 'Remove the pods when podrun exits: after completion, failure or interrupt'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l logs -d 'Show the containers\' output on stdout while waiting'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l abort-on-container-exit -d 'Stop the pod when an app container ends for good, as `docker compose up` does'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l strict -d 'Refuse Kubernetes fields podrun ignores'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l seccomp-default -d 'Run containers without a seccompProfile under the engine\'s default (RuntimeDefault)'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l prune -d 'After applying, delete podrun\'s pods that no longer have a manifest here'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l supervise -d 'Stay after the first pass and keep repairing the pods, as a kubelet does'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand apply" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s f -l filename -d 'Manifest file, directory or URL (as kubectl takes it; repeatable)' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l header -d 'An HTTP header for URL manifests, as the kubelet\'s --manifest-url-header' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l config -d 'A file of ConfigMaps and Secrets the pods refer to (repeatable)' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s n -l namespace -d 'Namespace for pods whose manifest names none' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l pull -d 'Override every container\'s imagePullPolicy for this run: always (Always), missing (IfNotPresent) or never (Never)' -r -f -a "always\t''
missing\t''
never\t''"
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l validate -d 'Fields Kubernetes does not know, as kubectl has it: strict refuses them; warn drops each with a warning naming its place; ignore drops them silently, as a kubelet\'s file source does (true and false stand for strict and ignore)' -r -f -a "strict\t''
warn\t''
ignore\t''"
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s R -l recursive -d 'Read directories recursively: the manifests of their subdirectories too (sorted; links to directories are not followed)'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l strict -d 'Refuse Kubernetes fields podrun ignores (not yet implemented, or only meaningful on a cluster)'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand validate" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s l -l selector -d 'Only the pods whose labels match, as kubectl\'s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l wait -d 'With --wait=false: no preStop hooks, no grace period; each container is removed with force (the engine kills it), and podrun returns once the engine has removed them' -r -f -a "true\t''
false\t''"
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s f -l filename -d 'Manifest file, directory or URL whose pods to delete (repeatable)' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l dry-run -d 'Delete nothing: server (the bare flag) finds the pods in the engine and says which would be deleted; client only says the pods named (no engine); none is off' -r -f -a "none\t'Off'
client\t'Check the manifests only; the engine is not contacted'
server\t'Ask the engine what would be done, and do nothing'"
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s n -l namespace -d 'Namespace of the pod [default: the manifest\'s, or default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l grace-period -d 'Seconds to wait after SIGTERM before SIGKILL [default: the pod\'s terminationGracePeriodSeconds]' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l header -d 'An HTTP header sent with every request for a URL manifest (repeatable; the value is never printed)' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l all -d 'Every pod podrun runs in the namespace (-n, default: default)'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l force -d 'Grace period 0: SIGKILL at once, without preStop hooks'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s R -l recursive -d 'Read directories recursively: the manifests of their subdirectories too'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l ignore-not-found -d 'A pod named that does not exist is not an error, as kubectl\'s flag'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l delete-volumes -d 'Also remove the engine volumes of the pods\' persistentVolumeClaims (kept otherwise, as a claim outlives its pod)'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand delete" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand get" -s n -l namespace -d 'Namespace of the pods [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -s l -l selector -d 'Only the pods whose labels match, as kubectl\'s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -s o -l output -d 'Output format: the table, the table with IP and IMAGES (wide), the Pod (one POD) or a List of Pods (json, yaml), pod/NAME lines (name), or kubectl\'s jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=HEADER:PATH,... and custom-columns-file=FILE' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -s L -l label-columns -d 'A column per label KEY, headed by the key upper-cased' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -l sort-by -d 'Sort the pods by the value at this JSONPath (e.g. .metadata.name, \'{.status.containerStatuses[0].restartCount}\'), as kubectl does' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand get" -s A -l all-namespaces -d 'Pods of every namespace, with a NAMESPACE column'
complete -c podrun -n "__fish_podrun_using_subcommand get" -l no-headers -d 'The table without its header line'
complete -c podrun -n "__fish_podrun_using_subcommand get" -l show-labels -d 'A LABELS column: each pod\'s labels, KEY=VALUE comma-joined'
complete -c podrun -n "__fish_podrun_using_subcommand get" -s w -l watch -d 'After the table, a line for each pod whose row changes, until interrupted'
complete -c podrun -n "__fish_podrun_using_subcommand get" -l watch-only -d 'As --watch, without the table first'
complete -c podrun -n "__fish_podrun_using_subcommand get" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand get" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand get" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand get" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand get" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s l -l selector -d 'Only the pods whose labels match, as kubectl\'s -l: KEY=VALUE, KEY!=VALUE, KEY in (V,...), KEY notin (V,...), KEY, !KEY, comma-joined (all must match)' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s n -l namespace -d 'Namespace of the pods [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l for -d 'What to wait for: running, ready, complete, condition=TYPE[=STATUS], delete or jsonpath=\'{PATH}\'[=VALUE]' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l timeout -d 'Overall deadline (e.g. 90s, 5m)' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s o -l output -d 'Output format of the result on stdout (json: the List of Pod objects `get -o json` gives)' -r -f -a "text\t''
json\t''"
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l all -d 'Every pod podrun runs in the namespace (-n, default: default)'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand wait" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s l -l selector -d 'The pods whose labels match, as get -l; each one\'s output (the last 10 lines unless --tail says), as kubectl logs -l' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l max-log-requests -d 'With -l and -f: the most containers followed at once' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s c -l container -d 'The container [default: the pod\'s default container]' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s n -l namespace -d 'Namespace of the pod [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l tail -d 'Only the last N lines' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l since -d 'Only output newer than this (e.g. 10s, 5m)' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s f -l follow -d 'Keep printing output as it is written, until the container stops'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s p -l previous -d 'The output of the instance before the last restart'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l timestamps -d 'Start each line with its RFC 3339 timestamp'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l all-containers -d 'Every container of the pod, init containers first'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l prefix -d 'Start each line with its source, `[pod/POD/CONTAINER] `'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand logs" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand events" -s n -l namespace -d 'Namespace of the pods [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -l for -d 'Only the events of this pod: pod/NAME (or NAME)' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -s o -l output -d 'Output format: an EventList of core/v1 Events [default: the table]' -r -f -a "json\t''
yaml\t''"
complete -c podrun -n "__fish_podrun_using_subcommand events" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand events" -s A -l all-namespaces -d 'Events of every namespace, with a NAMESPACE column'
complete -c podrun -n "__fish_podrun_using_subcommand events" -s w -l watch -d 'After the events so far, print each new one (or a repeat) as it comes, until interrupted'
complete -c podrun -n "__fish_podrun_using_subcommand events" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand events" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand events" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand events" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand events" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand events" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s n -l namespace -d 'Namespace of the pods [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s l -l selector -d 'The pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s f -l filename -d 'The pods of a manifest file (or directory)' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand describe" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand describe" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s c -l container -d 'The container [default: the pod\'s default container]' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s n -l namespace -d 'Namespace of the pod [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s i -l stdin -d 'Pass standard input to the command'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s t -l tty -d 'Give the command a terminal (with -i, when standard input is one)'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand exec" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s c -l container -d 'The container [default: the pod\'s default container]' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s n -l namespace -d 'Namespace of the pod [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l retries -d 'Set number of retries to complete a copy operation from a container. Specify 0 to disable or any negative value for infinite retrying' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l no-preserve -d 'The copied file/directory\'s ownership and permissions will not be preserved in the container'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand cp" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l max-dead -d 'Dead instances kept per pod container (besides the newest instance), for lastState and `logs --previous`' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l min-age -d 'Only remove what finished (or, for files, changed) at least this long ago' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l dry-run -d 'Print what would be removed, and remove nothing'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand gc" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand top" -s n -l namespace -d 'Namespace of the pods [default: default]' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -s l -l selector -d 'Only the pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand top" -s A -l all-namespaces -d 'Pods of every namespace, with a NAMESPACE column'
complete -c podrun -n "__fish_podrun_using_subcommand top" -l containers -d 'A row per container: POD, NAME, CPU(cores), MEMORY(bytes)'
complete -c podrun -n "__fish_podrun_using_subcommand top" -l no-headers -d 'No header line'
complete -c podrun -n "__fish_podrun_using_subcommand top" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand top" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand top" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand top" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand top" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand top" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand completions" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand completions" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand completions" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand completions" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand completions" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand man" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand man" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand man" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand man" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand man" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand man" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand man" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand man" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand man" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand man" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand man" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -s H -l host -d 'Container engine address: unix:///path, tcp://HOST:PORT, ssh://[USER@]HOST (--help: TLS)' -r
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l runtime-endpoint -d 'CRI runtime socket (unix:///path): containerd or CRI-O, as crictl takes it' -r
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l context -d 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config\'s currentContext, unless --host or DOCKER_HOST is given]' -r
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l tlscacert -d 'Trust engine certificates signed only by this CA [default: $DOCKER_CERT_PATH/ca.pem, else ~/.docker/ca.pem]' -r
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l tlscert -d 'Client certificate for TLS [default: cert.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l tlskey -d 'Client certificate\'s key for TLS [default: key.pem beside ca.pem, if there]' -r
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l tls -d 'Use TLS to a tcp:// engine, without verifying its certificate; implied by --tlsverify [default: on if $DOCKER_TLS is set]'
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -l tlsverify -d 'Use TLS to a tcp:// engine and verify its certificate [default: on if $DOCKER_TLS_VERIFY is set]'
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -s q -l quiet -d 'Show only warnings and errors (and `-o json` output)'
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -s v -l verbose -d 'Say more: -v shows each action podrun takes, -vv adds debug logs'
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c podrun -n "__fish_podrun_using_subcommand __complete" -s V -l version -d 'Print version'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "apply" -d 'Start a pod from a manifest and wait until it runs (or completes)'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "validate" -d 'Check manifests as apply would, without a container engine'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "delete" -d 'Stop and remove the containers podrun created for a pod'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "get" -d 'List the pods podrun runs, as `kubectl get pods` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "wait" -d 'Wait until pods podrun runs are running, ready or complete, as `kubectl wait` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "logs" -d 'Print a container\'s output, as `kubectl logs` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "events" -d 'List the events of the pods podrun runs, as `kubectl events` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "describe" -d 'Show pods in detail with their events, as `kubectl describe pod` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "exec" -d 'Run a command in a container of a pod, as `kubectl exec` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "cp" -d 'Copy files and directories to and from containers, as `kubectl cp` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "gc" -d 'Remove podrun\'s dead containers and leftover files, as the kubelet\'s container GC does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "top" -d 'Show the CPU and memory of pods now, as `kubectl top pod` does'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "completions" -d 'Print the completion script for a shell on stdout'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "man" -d 'Print the man page, podrun(1), on stdout'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "__complete" -d 'The pod or container names that fit the last of WORDS (the words of a command line being completed); for the completion scripts'
complete -c podrun -n "__fish_podrun_using_subcommand help; and not __fish_seen_subcommand_from apply validate delete get wait logs events describe exec cp gc top completions man __complete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c podrun -a '(podrun __complete -- (commandline -opc) (commandline -ct) 2>/dev/null)'
