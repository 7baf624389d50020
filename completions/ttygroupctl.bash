# bash completion for ttygroupctl(1)
# The policy keys are those of common/ttg-policy-keys.c; the unit test
# test-completions fails when one is missing here.

_ttygroupctl()
{
    local cur prev words cword
    _init_completion -n = || return

    local commands='status list explain get-policy set-policy set-user-policy enable disable monitor top metrics'
    local options='--json --json= --no-legend --no-pager --no-ask-password --delay= --iterations= --output= --version --help'
    local keys='Enabled GroupTerminals ManageGreeter ActiveSessionWeight SessionWeight RemoteSessionWeight TerminalWeight'
    local user_keys='Enabled GroupTerminals TerminalWeight'
    local booleans='true false yes no on off 1 0'

    if [[ $cur == --json=* ]]; then
        COMPREPLY=($(compgen -W 'short pretty off' -- "${cur#--json=}"))
        return
    fi
    # top: seconds between refreshes, and a count of snapshots
    if [[ $cur == --delay=* ]]; then
        COMPREPLY=($(compgen -W '0.5 1 2 5' -- "${cur#--delay=}"))
        return
    fi
    if [[ $cur == --iterations=* ]]; then
        COMPREPLY=($(compgen -W '1 5 10' -- "${cur#--iterations=}"))
        return
    fi

    # metrics: a file to write
    if [[ $cur == --output=* ]]; then
        local IFS=$'\n'
        COMPREPLY=($(compgen -f -- "${cur#--output=}"))
        return
    fi

    local i command=
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} != -* ]]; then
            command=${words[i]}
            break
        fi
    done

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi

    case $command in
        '')
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            ;;
        explain)
            COMPREPLY=($(compgen -W "$(command ps -e -o pid= 2>/dev/null)" -- "$cur"))
            ;;
        set-policy|set-user-policy)
            local k list=$keys
            [[ $command == set-user-policy ]] && list=$user_keys
            if [[ $cur == *=* ]]; then
                k=${cur%%=*}
                case " Enabled GroupTerminals ManageGreeter " in
                    *" $k "*) COMPREPLY=($(compgen -W "$booleans" -- "${cur#*=}")) ;;
                esac
            else
                COMPREPLY=($(compgen -W "$list" -S = -- "$cur"))
                compopt -o nospace
            fi
            ;;
    esac
}
complete -F _ttygroupctl ttygroupctl
