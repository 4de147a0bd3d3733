
use builtin;
use str;

set edit:completion:arg-completer[podrun] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'podrun'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'podrun'= {
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand apply 'Start a pod from a manifest and wait until it runs (or completes)'
            cand validate 'Check manifests as apply would, without a container engine'
            cand delete 'Stop and remove the containers podrun created for a pod'
            cand get 'List the pods podrun runs, as `kubectl get pods` does'
            cand logs 'Print a container''s output, as `kubectl logs` does'
            cand exec 'Run a command in a container of a pod, as `kubectl exec` does'
            cand gc 'Remove podrun''s dead containers and leftover files, as the kubelet''s container GC does'
            cand completions 'Print the completion script for a shell on stdout'
            cand man 'Print the man page, podrun(1), on stdout'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'podrun;apply'= {
            cand -f 'Manifest file (as kubectl takes it)'
            cand --filename 'Manifest file (as kubectl takes it)'
            cand -n 'Namespace for pods whose manifest names none'
            cand --namespace 'Namespace for pods whose manifest names none'
            cand --timeout 'Overall deadline (e.g. 90s, 5m)'
            cand --retries 'How many times to repair the pod (restart, recreate) after the first sync'
            cand --retry-delay 'Wait before the first repair; later waits grow by --backoff'
            cand --backoff 'Factor by which the wait grows after each repair'
            cand --crash-backoff 'Wait before restarting a crashed container the second time; it doubles each restart (the first restart is immediate)'
            cand --crash-backoff-max 'The longest wait between restarts of a crashing container'
            cand --min-uptime 'How long a container must have been up (from its start as the engine records it) before it counts as running; a container restarted after a crash must stay up five times as long. 0 counts a container as running as soon as the engine says it runs'
            cand --exit-code-from 'Exit with this container''s exit code (its last termination) once the run ends successfully or this container failed; implies --wait-for complete'
            cand --wait-for 'What to wait for [default: running under restartPolicy Always, complete otherwise]'
            cand -o 'Output format of the result on stdout'
            cand --output 'Output format of the result on stdout'
            cand --network 'Attach pods to this user-defined engine network (so static pods reach each other by name)'
            cand --infra-image 'Image for the pod''s infra container [default: podrun''s own, built locally]'
            cand --pull 'Override every container''s imagePullPolicy for this run: always (Always), missing (IfNotPresent) or never (Never)'
            cand --config 'A file of ConfigMaps and Secrets the pods refer to (repeatable)'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand --cleanup-on-failure 'Remove what this run created when the pod fails or the run is interrupted'
            cand --rm 'Remove the pods (their containers and podrun''s files for them) when podrun exits: after completion, failure or interrupt'
            cand --logs 'Show the containers'' output (init containers too) on stdout while waiting, each line prefixed with its container''s name'
            cand --strict 'Refuse fields podrun ignores (not yet implemented, or only meaningful on a cluster)'
            cand --prune 'After applying, delete podrun''s pods that no longer have a manifest among the given files or directories, in the namespaces those manifests use (and -n); never others'
            cand --dry-run 'Print what apply would do to each pod (containers to create, recreate, start, stop or remove, images to pull) and change nothing'
            cand --supervise 'After the first pass, stay and keep repairing the pods as a kubelet does (restarts with CrashLoopBackOff, lost containers recreated), until SIGINT or SIGTERM (then exit 0, leaving the pods running). Tells systemd when the first pass is done (Type=notify). Changed manifests are applied again (checked every 20 s, and on SIGHUP)'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;validate'= {
            cand --config 'A file of ConfigMaps and Secrets the pods refer to (repeatable)'
            cand -n 'Namespace for pods whose manifest names none'
            cand --namespace 'Namespace for pods whose manifest names none'
            cand --pull 'Override every container''s imagePullPolicy for this run: always (Always), missing (IfNotPresent) or never (Never)'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand --strict 'Refuse fields podrun ignores (not yet implemented, or only meaningful on a cluster)'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;delete'= {
            cand -l 'Only the pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)'
            cand --selector 'Only the pods whose labels match, KEY=VALUE[,KEY=VALUE] (all must match)'
            cand --wait 'With --wait=false: no preStop hooks, no grace period; each container is removed with force (the engine kills it), and podrun returns once the engine has removed them'
            cand -f 'Manifest file whose pods to delete'
            cand --filename 'Manifest file whose pods to delete'
            cand -n 'Namespace of the pod [default: the manifest''s, or default]'
            cand --namespace 'Namespace of the pod [default: the manifest''s, or default]'
            cand --grace-period 'Seconds to wait after SIGTERM before SIGKILL [default: the pod''s terminationGracePeriodSeconds]'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand --all 'Every pod podrun runs in the namespace (-n, default: default)'
            cand --force 'Grace period 0: SIGKILL at once, without preStop hooks'
            cand --delete-volumes 'Also remove the engine volumes of the pods'' persistentVolumeClaims (kept otherwise, as a claim outlives its pod)'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;get'= {
            cand -n 'Namespace of the pods [default: default]'
            cand --namespace 'Namespace of the pods [default: default]'
            cand -o 'Output format: the table, the table with IP and IMAGES (wide), or the Pod (one POD) or a List of Pods (json, yaml)'
            cand --output 'Output format: the table, the table with IP and IMAGES (wide), or the Pod (one POD) or a List of Pods (json, yaml)'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand -A 'Pods of every namespace, with a NAMESPACE column'
            cand --all-namespaces 'Pods of every namespace, with a NAMESPACE column'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;logs'= {
            cand -c 'The container [default: the pod''s default container]'
            cand --container 'The container [default: the pod''s default container]'
            cand -n 'Namespace of the pod [default: default]'
            cand --namespace 'Namespace of the pod [default: default]'
            cand --tail 'Only the last N lines'
            cand --since 'Only output newer than this (e.g. 10s, 5m)'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand -f 'Keep printing output as it is written, until the container stops'
            cand --follow 'Keep printing output as it is written, until the container stops'
            cand -p 'The output of the instance before the last restart'
            cand --previous 'The output of the instance before the last restart'
            cand --timestamps 'Start each line with its RFC 3339 timestamp'
            cand --all-containers 'Every container of the pod, init containers first'
            cand --prefix 'Start each line with its source, `[pod/POD/CONTAINER] `'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;exec'= {
            cand -c 'The container [default: the pod''s default container]'
            cand --container 'The container [default: the pod''s default container]'
            cand -n 'Namespace of the pod [default: default]'
            cand --namespace 'Namespace of the pod [default: default]'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand -i 'Pass standard input to the command'
            cand --stdin 'Pass standard input to the command'
            cand -t 'Give the command a terminal (with -i, when standard input is one)'
            cand --tty 'Give the command a terminal (with -i, when standard input is one)'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;gc'= {
            cand --max-dead 'Dead instances kept per pod container (besides the newest instance), for lastState and `logs --previous`'
            cand --min-age 'Only remove what finished (or, for files, changed) at least this long ago'
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand --dry-run 'Print what would be removed, and remove nothing'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;completions'= {
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;man'= {
            cand -H 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --host 'Container engine address (unix:///path or tcp://host:port) [default: $DOCKER_HOST, else the Docker context, else unix:///var/run/docker.sock]'
            cand --context 'Docker context to use (as `docker --context`; not with --host) [default: $DOCKER_CONTEXT, else the Docker config''s currentContext, unless --host or DOCKER_HOST is given]'
            cand -q 'Show only warnings and errors (and `-o json` output)'
            cand --quiet 'Show only warnings and errors (and `-o json` output)'
            cand -v 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand --verbose 'Say more: -v shows each action podrun takes, -vv adds debug logs'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'podrun;help'= {
            cand apply 'Start a pod from a manifest and wait until it runs (or completes)'
            cand validate 'Check manifests as apply would, without a container engine'
            cand delete 'Stop and remove the containers podrun created for a pod'
            cand get 'List the pods podrun runs, as `kubectl get pods` does'
            cand logs 'Print a container''s output, as `kubectl logs` does'
            cand exec 'Run a command in a container of a pod, as `kubectl exec` does'
            cand gc 'Remove podrun''s dead containers and leftover files, as the kubelet''s container GC does'
            cand completions 'Print the completion script for a shell on stdout'
            cand man 'Print the man page, podrun(1), on stdout'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'podrun;help;apply'= {
        }
        &'podrun;help;validate'= {
        }
        &'podrun;help;delete'= {
        }
        &'podrun;help;get'= {
        }
        &'podrun;help;logs'= {
        }
        &'podrun;help;exec'= {
        }
        &'podrun;help;gc'= {
        }
        &'podrun;help;completions'= {
        }
        &'podrun;help;man'= {
        }
        &'podrun;help;help'= {
        }
    ]
    $completions[$command]
}
