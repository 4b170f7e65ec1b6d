#!/bin/bash

__anywall_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__anywall_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__anywall_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__anywall_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_anywall() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __anywall_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    signup|login|logout|whoami|link|unlink|post|nearby|where|reply|thread|vote|report|delete|activity|moderate|settings|config|outbox|import|passwd|help)
        # Offer subcommand argument completions
        "_anywall_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'signup login logout whoami link unlink post nearby where reply thread vote report delete activity moderate settings config outbox import passwd help' -- "${cur}"))
        ;;
    esac
}

_anywall_signup() {
    repeating_flags=()
    non_repeating_flags=(--password-stdin --anonymous --version -h --help)
    repeating_options=()
    non_repeating_options=(--username --password-file --name --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--username')
        return
        ;;
    '--password-file')
        __anywall_add_completions -f
        return
        ;;
    '--name')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_login() {
    repeating_flags=()
    non_repeating_flags=(--password-stdin --facebook --token-stdin --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--username --password-file --token-file --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--username')
        return
        ;;
    '--password-file')
        __anywall_add_completions -f
        return
        ;;
    '--token-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_logout() {
    repeating_flags=()
    non_repeating_flags=(--force --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_whoami() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_link() {
    repeating_flags=()
    non_repeating_flags=(--facebook --token-stdin --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--token-file --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--token-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_unlink() {
    repeating_flags=()
    non_repeating_flags=(--facebook --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_post() {
    repeating_flags=()
    non_repeating_flags=(--no-queue --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--at --gpsd --nmea --baud --fix-timeout --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_nearby() {
    repeating_flags=()
    non_repeating_flags=(--changes --watch --table --json --ndjson --geojson --no-color --map --version -h --help)
    repeating_options=()
    non_repeating_options=(--at --gpsd --nmea --baud --fix-timeout --radius --limit --search-distance --within --sort --cache-policy --min-move --interval --map-style --size --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--radius')
        return
        ;;
    '--limit')
        return
        ;;
    '--search-distance')
        return
        ;;
    '--within')
        return
        ;;
    '--sort')
        __anywall_add_completions -W 'near'$'\n''new'$'\n''hot'$'\n''top'
        return
        ;;
    '--cache-policy')
        __anywall_add_completions -W 'ignore-cache'$'\n''cache-only'$'\n''network-only'$'\n''cache-else-network'$'\n''network-else-cache'$'\n''cache-then-network'
        return
        ;;
    '--min-move')
        return
        ;;
    '--interval')
        return
        ;;
    '--map-style')
        __anywall_add_completions -W 'braille'$'\n''blocks'$'\n''ascii'
        return
        ;;
    '--size')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_where() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--at --gpsd --nmea --baud --fix-timeout --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_reply() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--at --gpsd --nmea --baud --fix-timeout --store)
    __anywall_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_thread() {
    repeating_flags=()
    non_repeating_flags=(--watch --table --json --ndjson --geojson --no-color --version -h --help)
    repeating_options=()
    non_repeating_options=(--at --gpsd --nmea --baud --fix-timeout --limit --skip --interval --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--limit')
        return
        ;;
    '--skip')
        return
        ;;
    '--interval')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_vote() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--at --gpsd --nmea --baud --fix-timeout --store)
    __anywall_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    2)
        __anywall_add_completions -W 'up'$'\n''down'$'\n''none'
        return
        ;;
    esac
}

_anywall_report() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--reason --note --at --gpsd --nmea --baud --fix-timeout --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--reason')
        __anywall_add_completions -W 'offensive'$'\n''targets-someone'$'\n''spam'$'\n''other'
        return
        ;;
    '--note')
        return
        ;;
    '--at')
        return
        ;;
    '--gpsd')
        return
        ;;
    '--nmea')
        __anywall_add_completions -f
        return
        ;;
    '--baud')
        return
        ;;
    '--fix-timeout')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_delete() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_activity() {
    repeating_flags=()
    non_repeating_flags=(--watch --table --json --ndjson --geojson --no-color --version -h --help)
    repeating_options=()
    non_repeating_options=(--since --limit --interval --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--since')
        return
        ;;
    '--limit')
        return
        ;;
    '--interval')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_moderate() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __anywall_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    queue|restore|remove|grant|revoke)
        # Offer subcommand argument completions
        "_anywall_moderate_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'queue restore remove grant revoke' -- "${cur}"))
        ;;
    esac
}

_anywall_moderate_queue() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--limit --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--limit')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_moderate_restore() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_moderate_remove() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_moderate_grant() {
    repeating_flags=()
    non_repeating_flags=(--master-key-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--master-key-file --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--master-key-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_moderate_revoke() {
    repeating_flags=()
    non_repeating_flags=(--master-key-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--master-key-file --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--master-key-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_settings() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __anywall_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|set|unset)
        # Offer subcommand argument completions
        "_anywall_settings_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show set unset' -- "${cur}"))
        ;;
    esac
}

_anywall_settings_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_settings_set() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __anywall_add_completions -W 'radius'$'\n''units'$'\n''location'$'\n''format'$'\n''server'$'\n''app-id'$'\n''rest-key'$'\n''live-query-url'$'\n''timeout'$'\n''facebook-app-id'$'\n''facebook-client-token'
        return
        ;;
    2)
        __anywall_add_completions -W "$(__anywall_custom_complete ---completion settings set -- positional@1 "${COMP_CWORD}" "$(__anywall_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_anywall_settings_unset() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __anywall_add_completions -W 'radius'$'\n''units'$'\n''location'$'\n''format'$'\n''server'$'\n''app-id'$'\n''rest-key'$'\n''live-query-url'$'\n''timeout'$'\n''facebook-app-id'$'\n''facebook-client-token'
        return
        ;;
    esac
}

_anywall_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __anywall_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|refresh|set|unset|init)
        # Offer subcommand argument completions
        "_anywall_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show refresh set unset init' -- "${cur}"))
        ;;
    esac
}

_anywall_config_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_config_refresh() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_config_set() {
    repeating_flags=()
    non_repeating_flags=(--new-key --master-key-stdin --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--master-key-file --store)
    __anywall_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--master-key-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_config_unset() {
    repeating_flags=()
    non_repeating_flags=(--master-key-stdin --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--master-key-file --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--master-key-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_config_init() {
    repeating_flags=()
    non_repeating_flags=(--master-key-stdin --json --version -h --help)
    repeating_options=()
    non_repeating_options=(--master-key-file --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--master-key-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_outbox() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __anywall_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|retry|drop)
        # Offer subcommand argument completions
        "_anywall_outbox_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show retry drop' -- "${cur}"))
        ;;
    esac
}

_anywall_outbox_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_outbox_retry() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_outbox_drop() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_import() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--batch-size --store)
    __anywall_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--batch-size')
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_passwd() {
    repeating_flags=()
    non_repeating_flags=(--password-stdin --version -h --help)
    repeating_options=()
    non_repeating_options=(--username --password-file --store)
    __anywall_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--username')
        return
        ;;
    '--password-file')
        __anywall_add_completions -f
        return
        ;;
    '--store')
        __anywall_add_completions -f
        return
        ;;
    esac
}

_anywall_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __anywall_offer_flags_options -1
}

complete -o filenames -F _anywall anywall
