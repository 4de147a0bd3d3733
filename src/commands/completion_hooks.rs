//! The part of the completion scripts clap cannot generate: pod and container names, asked of
//! podrun itself (`podrun __complete -- WORDS`, see `complete_names`) as kubectl's scripts ask
//! `kubectl __complete`. Each script calls it first and falls back to clap's static completion
//! when it offers nothing. Elvish and PowerShell keep the static completion only.

use clap_complete::Shell;

/// bash: a function around clap's `_podrun`, registered in its place.
const BASH: &str = r#"
_podrun_names() {
    local names
    names=$(podrun __complete -- "${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null)
    if [[ -n $names ]]; then
        local IFS=$'\n'
        COMPREPLY=($(compgen -W "$names" -- "${COMP_WORDS[COMP_CWORD]}"))
    else
        _podrun "$@"
    fi
}
"#;

/// zsh: the same, defined before the file's last lines register or call `_podrun`.
const ZSH: &str = r#"_podrun_names() {
    local -a names
    names=(${(f)"$(podrun __complete -- "${(@)words[1,CURRENT]}" 2>/dev/null)"})
    if (( ${#names} )); then
        compadd -a names
    else
        _podrun "$@"
    fi
}

"#;

/// fish: one more completion whose candidates are the names, when there are any.
const FISH: &str = "complete -c podrun -a '(podrun __complete -- (commandline -opc) (commandline -ct) 2>/dev/null)'\n";

/// `script`, clap's completion script for `shell`, with the names hooked in.
#[must_use]
pub fn with_names(shell: Shell, script: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(script.clone()) else { return script };
    match shell {
        Shell::Bash => {
            format!("{BASH}\n{}", text.replace("complete -F _podrun ", "complete -F _podrun_names ")).into_bytes()
        }
        Shell::Zsh => match text.rfind("if [ \"$funcstack[1]\" = \"_podrun\" ]; then") {
            Some(at) => {
                let tail = text[at..]
                    .replace("    _podrun \"$@\"", "    _podrun_names \"$@\"")
                    .replace("compdef _podrun podrun", "compdef _podrun_names podrun");
                format!("{}{ZSH}{tail}", &text[..at]).into_bytes()
            }
            None => script,
        },
        Shell::Fish => format!("{text}{FISH}").into_bytes(),
        _ => script,
    }
}
