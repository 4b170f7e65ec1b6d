function __anywall_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __anywall_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __anywall_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __anywall_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __anywall_parse_tokens -S
    set -l unparsed_tokens (__anywall_tokens -pc)
    switch $unparsed_tokens[1]
    case 'anywall'
        __anywall_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'signup'
            __anywall_parse_subcommand 0 'username=' 'password-stdin' 'password-file=' 'name=' 'anonymous' 'store=' 'version' 'h/help'
        case 'login'
            __anywall_parse_subcommand 0 'username=' 'password-stdin' 'password-file=' 'facebook' 'token-file=' 'token-stdin' 'json' 'store=' 'version' 'h/help'
        case 'logout'
            __anywall_parse_subcommand 0 'force' 'store=' 'version' 'h/help'
        case 'whoami'
            __anywall_parse_subcommand 0 'json' 'store=' 'version' 'h/help'
        case 'link'
            __anywall_parse_subcommand 0 'facebook' 'token-file=' 'token-stdin' 'json' 'store=' 'version' 'h/help'
        case 'unlink'
            __anywall_parse_subcommand 0 'facebook' 'store=' 'version' 'h/help'
        case 'post'
            __anywall_parse_subcommand 1 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'no-queue' 'json' 'store=' 'version' 'h/help'
        case 'nearby'
            __anywall_parse_subcommand 0 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'radius=' 'limit=' 'search-distance=' 'within=' 'sort=' 'changes' 'cache-policy=' 'watch' 'min-move=' 'interval=' 'table' 'json' 'ndjson' 'geojson' 'no-color' 'map' 'map-style=' 'size=' 'store=' 'version' 'h/help'
        case 'where'
            __anywall_parse_subcommand 0 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'json' 'store=' 'version' 'h/help'
        case 'reply'
            __anywall_parse_subcommand 2 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'json' 'store=' 'version' 'h/help'
        case 'thread'
            __anywall_parse_subcommand 1 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'limit=' 'skip=' 'watch' 'interval=' 'table' 'json' 'ndjson' 'geojson' 'no-color' 'store=' 'version' 'h/help'
        case 'vote'
            __anywall_parse_subcommand 2 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'json' 'store=' 'version' 'h/help'
        case 'report'
            __anywall_parse_subcommand 1 'reason=' 'note=' 'at=' 'gpsd=' 'nmea=' 'baud=' 'fix-timeout=' 'store=' 'version' 'h/help'
        case 'delete'
            __anywall_parse_subcommand 1 'store=' 'version' 'h/help'
        case 'activity'
            __anywall_parse_subcommand 0 'since=' 'limit=' 'watch' 'interval=' 'table' 'json' 'ndjson' 'geojson' 'no-color' 'store=' 'version' 'h/help'
        case 'moderate'
            __anywall_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'queue'
                __anywall_parse_subcommand 0 'limit=' 'json' 'store=' 'version' 'h/help'
            case 'restore'
                __anywall_parse_subcommand 1 'store=' 'version' 'h/help'
            case 'remove'
                __anywall_parse_subcommand 1 'store=' 'version' 'h/help'
            case 'grant'
                __anywall_parse_subcommand 1 'master-key-stdin' 'master-key-file=' 'store=' 'version' 'h/help'
            case 'revoke'
                __anywall_parse_subcommand 1 'master-key-stdin' 'master-key-file=' 'store=' 'version' 'h/help'
            end
        case 'settings'
            __anywall_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __anywall_parse_subcommand 0 'json' 'store=' 'version' 'h/help'
            case 'set'
                __anywall_parse_subcommand 2 'store=' 'version' 'h/help'
            case 'unset'
                __anywall_parse_subcommand 1 'store=' 'version' 'h/help'
            end
        case 'config'
            __anywall_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __anywall_parse_subcommand 0 'json' 'store=' 'version' 'h/help'
            case 'refresh'
                __anywall_parse_subcommand 0 'json' 'store=' 'version' 'h/help'
            case 'set'
                __anywall_parse_subcommand 2 'new-key' 'master-key-stdin' 'master-key-file=' 'json' 'store=' 'version' 'h/help'
            case 'unset'
                __anywall_parse_subcommand 1 'master-key-stdin' 'master-key-file=' 'json' 'store=' 'version' 'h/help'
            case 'init'
                __anywall_parse_subcommand 0 'master-key-stdin' 'master-key-file=' 'json' 'store=' 'version' 'h/help'
            end
        case 'outbox'
            __anywall_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'show'
                __anywall_parse_subcommand 0 'json' 'store=' 'version' 'h/help'
            case 'retry'
                __anywall_parse_subcommand -r 1 'store=' 'version' 'h/help'
            case 'drop'
                __anywall_parse_subcommand 1 'store=' 'version' 'h/help'
            end
        case 'import'
            __anywall_parse_subcommand 1 'batch-size=' 'store=' 'version' 'h/help'
        case 'passwd'
            __anywall_parse_subcommand 0 'username=' 'password-stdin' 'password-file=' 'store=' 'version' 'h/help'
        case 'help'
            __anywall_parse_subcommand -r 1 'version'
        end
    end
end

function __anywall_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __anywall_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __anywall_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __anywall_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__anywall_tokens -p)
    if test -z "$(__anywall_tokens -t)"
        set -l index (count (__anywall_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'anywall' -f
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'signup' -d 'Create an account, then stay logged in.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'login' -d 'Log in; the session is kept on disk (mode 0600).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'logout' -d 'End the session on the wall and forget it locally.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'whoami' -d 'Show who is logged in, on which wall, and their karma.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'link' -d 'Link a Facebook account to the account logged in, as another way to log in to it.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'unlink' -d 'Unlink Facebook from the account logged in.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'post' -d 'Leave a message where you are.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'nearby' -d 'List the posts nearest you, nearest first.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'where' -d 'Show the location fix the other commands would use.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'reply' -d 'Reply in a post\'s thread, from near the post.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'thread' -d 'Show a post, then its replies, oldest first.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'vote' -d 'Vote a post up or down (none withdraws your vote).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'report' -d 'Report a post to the wall\'s moderators.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'delete' -d 'Delete your own post or reply (moderators: any).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'activity' -d 'Show what happened to your posts and threads, newest first.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'moderate' -d 'Moderators: the queue of removed and reported posts; restore or remove.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'settings' -d 'Show or change local preferences.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'config' -d 'Show, refresh or change the wall\'s shared config.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'outbox' -d 'Show the posts waiting for a server, and those it refused.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'import' -d 'Load posts from a Parse export of Posts, or NDJSON, into the wall.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'passwd' -d 'Set a user\'s password on the embedded wall.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" username' -l 'username' -d 'The account\'s username (prompted on a terminal when omitted).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" password-stdin' -l 'password-stdin' -d 'Read the password from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" password-file' -l 'password-file' -d 'Read the password from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" name' -l 'name' -d 'The name shown as the author of your posts (default: the username).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" anonymous' -l 'anonymous' -d 'Create an account with no username or password (Parse\'s anonymous user); logging out loses it.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall signup" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" username' -l 'username' -d 'The account\'s username (prompted on a terminal when omitted).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" password-stdin' -l 'password-stdin' -d 'Read the password from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" password-file' -l 'password-file' -d 'Read the password from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" facebook' -l 'facebook' -d 'Log in with Facebook (Parse\'s authData.facebook): a token given, else Facebook\'s device login (a code to enter at facebook.com/device).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" token-file' -l 'token-file' -d 'Read a Facebook access token from the first line of a file (else: a device login).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" token-stdin' -l 'token-stdin' -d 'Read a Facebook access token from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" json' -l 'json' -d 'Also print the device login\'s code as one JSON object on stdout.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall logout" force' -l 'force' -d 'Log out of an anonymous account without asking, losing it.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall logout" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall logout" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall whoami" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall whoami" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall whoami" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall whoami" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" facebook' -l 'facebook' -d 'Link Facebook (Parse\'s authData.facebook).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" token-file' -l 'token-file' -d 'Read a Facebook access token from the first line of a file (else: a device login).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" token-stdin' -l 'token-stdin' -d 'Read a Facebook access token from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" json' -l 'json' -d 'Also print the device login\'s code as one JSON object on stdout.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall link" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall unlink" facebook' -l 'facebook' -d 'Unlink Facebook (Parse\'s authData.facebook).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall unlink" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall unlink" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall unlink" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" no-queue' -l 'no-queue' -d 'When the server cannot be reached, fail instead of keeping the post in the outbox.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall post" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" radius' -l 'radius' -d 'The filter radius for this call, e.g. 250ft, 2km (default: the \'radius\' setting, else 1000m).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" limit' -l 'limit' -d 'How many posts at most, 1 to 1000 (default: 20).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" search-distance' -l 'search-distance' -d 'How far to look (default: 100km).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" within' -l 'within' -d 'Only posts inside AREA: a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection, WKT, or a box WEST,SOUTH,EAST,NORTH; @FILE reads it from a file, @- from stdin.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" sort' -l 'sort' -d 'The order: near (nearest first, the default), new, hot or top.' -rfka 'near new hot top'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" changes' -l 'changes' -d 'Print only the changes since the previous run of this query.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" cache-policy' -l 'cache-policy' -d 'On a server: ignore-cache, cache-only, network-only, cache-else-network, network-else-cache, cache-then-network (default: network-else-cache).' -rfka 'ignore-cache cache-only network-only cache-else-network network-else-cache cache-then-network'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" watch' -l 'watch' -d 'Keep running and print only what changes as you move (ends at the end of NMEA input, or on Ctrl-C).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" min-move' -l 'min-move' -d 'With --watch: ask the wall again after moving this far (default: 10m).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" interval' -l 'interval' -d 'With --watch: ask the wall again this often, e.g. 30, 30s, 500ms, 2min (default: 30s).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" table' -l 'table' -d 'A readable table.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" json' -l 'json' -d 'A JSON array.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" ndjson' -l 'ndjson' -d 'One JSON object per line.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" geojson' -l 'geojson' -d 'An RFC 7946 GeoJSON FeatureCollection.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" no-color' -l 'no-color' -d 'No colour, even on a terminal (as NO_COLOR does).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" map' -l 'map' -d 'Draw the posts as a map around you, with a numbered list below it.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" map-style' -l 'map-style' -d 'With --map: braille, blocks or ascii (default: braille; ascii when TERM=dumb).' -rfka 'braille blocks ascii'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" size' -l 'size' -d 'With --map: the frame\'s size, e.g. 100x30 (default: the terminal\'s; piped, COLUMNS and LINES, else 80x24).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall nearby" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall where" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall reply" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" limit' -l 'limit' -d 'How many replies at most, 1 to 1000 (default: 100).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" skip' -l 'skip' -d 'How many replies to skip first (default: 0).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" watch' -l 'watch' -d 'Keep running and print what is new as it comes (ends on Ctrl-C).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" interval' -l 'interval' -d 'With --watch, where the wall offers no LiveQuery: ask it again this often, e.g. 30s, 500ms, 2min (default: 30s).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" table' -l 'table' -d 'A readable table.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" json' -l 'json' -d 'A JSON array.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" ndjson' -l 'ndjson' -d 'One JSON object per line.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" geojson' -l 'geojson' -d 'An RFC 7946 GeoJSON FeatureCollection.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" no-color' -l 'no-color' -d 'No colour, even on a terminal (as NO_COLOR does).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall thread" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall vote" -eq 1' -fka 'up down none'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall vote" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" reason' -l 'reason' -d 'Why: offensive, targets-someone, spam, other.' -rfka 'offensive targets-someone spam other'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" note' -l 'note' -d 'A few words for the moderators (at most 500 characters).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" at' -l 'at' -d 'A fixed location, e.g. 37.7793,-122.4193.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" gpsd' -l 'gpsd' -d 'Read fixes from gpsd (default: localhost:2947; the value may be left out).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" nmea' -l 'nmea' -d 'Read NMEA 0183 from a file, a serial device, or stdin for \'-\'.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" baud' -l 'baud' -d 'Serial line speed for an NMEA device, e.g. 4800, 9600, 115200.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" fix-timeout' -l 'fix-timeout' -d 'How long to wait for a location fix (default: 10).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall report" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall delete" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall delete" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" since' -l 'since' -d 'all, an ISO date, or an age such as 12h or 7d (default: since you last looked).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" limit' -l 'limit' -d 'How many entries at most, 1 to 1000 (default: 100).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" watch' -l 'watch' -d 'Keep running and print what is new as it comes (ends on Ctrl-C).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" interval' -l 'interval' -d 'With --watch, where the wall offers no LiveQuery: ask it again this often, e.g. 30s, 500ms, 2min (default: 30s).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" table' -l 'table' -d 'A readable table.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" json' -l 'json' -d 'A JSON array.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" ndjson' -l 'ndjson' -d 'One JSON object per line.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" geojson' -l 'geojson' -d 'An RFC 7946 GeoJSON FeatureCollection.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" no-color' -l 'no-color' -d 'No colour, even on a terminal (as NO_COLOR does).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall activity" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall moderate" -eq 1' -fa 'queue' -d 'Removed and reported posts, most recently reported first, with their reports.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall moderate" -eq 1' -fa 'restore' -d 'Put a removed post back up, for good.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall moderate" -eq 1' -fa 'remove' -d 'Remove a post for everyone but its author.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall moderate" -eq 1' -fa 'grant' -d 'Make a user a moderator.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall moderate" -eq 1' -fa 'revoke' -d 'Make a moderator a user like any other.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate queue" limit' -l 'limit' -d 'How many posts at most, 1 to 1000 (default: 100).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate queue" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate queue" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate queue" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate queue" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate restore" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate restore" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate restore" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate remove" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate remove" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate grant" master-key-stdin' -l 'master-key-stdin' -d 'Read the Parse master key from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate grant" master-key-file' -l 'master-key-file' -d 'Read the Parse master key from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate grant" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate grant" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate grant" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate revoke" master-key-stdin' -l 'master-key-stdin' -d 'Read the Parse master key from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate revoke" master-key-file' -l 'master-key-file' -d 'Read the Parse master key from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate revoke" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate revoke" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall moderate revoke" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall settings" -eq 1' -fa 'show' -d 'Show every setting, its value and where it comes from.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall settings" -eq 1' -fa 'set' -d 'Set a preference; bad keys and values are refused.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall settings" -eq 1' -fa 'unset' -d 'Return a preference to its default.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings show" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings show" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings show" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall settings set" -eq 1' -fka 'radius units location format server app-id rest-key live-query-url timeout facebook-app-id facebook-client-token'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall settings set" -eq 2' -fka '(__anywall_custom_completion ---completion settings set -- positional@1 (count (__anywall_tokens -pc)) (__anywall_tokens -tC))'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings set" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings set" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall settings unset" -eq 1' -fka 'radius units location format server app-id rest-key live-query-url timeout facebook-app-id facebook-client-token'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings unset" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings unset" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall settings unset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall config" -eq 1' -fa 'show' -d 'Show the config in use and where it came from.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall config" -eq 1' -fa 'refresh' -d 'Fetch the config now, whatever the cached copy\'s age.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall config" -eq 1' -fa 'set' -d 'Set one parameter to a JSON value, e.g. postMaxCharacterCount 200.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall config" -eq 1' -fa 'unset' -d 'Remove one parameter; Anywall\'s own then take their defaults.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall config" -eq 1' -fa 'init' -d 'Prepare a new wall: seed the default config, keeping values already set.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config show" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config show" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config show" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config refresh" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config refresh" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config refresh" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config refresh" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" new-key' -l 'new-key' -d 'Add a parameter anywall does not use (for other clients of the wall).'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" master-key-stdin' -l 'master-key-stdin' -d 'Read the Parse master key from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" master-key-file' -l 'master-key-file' -d 'Read the Parse master key from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config set" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config unset" master-key-stdin' -l 'master-key-stdin' -d 'Read the Parse master key from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config unset" master-key-file' -l 'master-key-file' -d 'Read the Parse master key from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config unset" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config unset" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config unset" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config unset" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config init" master-key-stdin' -l 'master-key-stdin' -d 'Read the Parse master key from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config init" master-key-file' -l 'master-key-file' -d 'Read the Parse master key from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config init" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config init" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config init" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall config init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall outbox" -eq 1' -fa 'show' -d 'List the waiting and the set-aside posts.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall outbox" -eq 1' -fa 'retry' -d 'Send set-aside posts again (all, or those named), after fixing what was refused.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall outbox" -eq 1' -fa 'drop' -d 'Forget one post, waiting or set aside.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox show" json' -l 'json' -d 'Print JSON.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox show" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox show" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox retry" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox retry" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox retry" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox drop" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox drop" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall outbox drop" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_positional "anywall import" -eq 1' -F
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall import" batch-size' -l 'batch-size' -d 'Posts per transaction when adding to a larger wall. An input at least as large as the wall is loaded in one transaction, its location index built at the end.' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall import" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall import" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall passwd" username' -l 'username' -d 'The account\'s username (prompted on a terminal when omitted).' -rfka ''
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall passwd" password-stdin' -l 'password-stdin' -d 'Read the password from the first line of standard input.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall passwd" password-file' -l 'password-file' -d 'Read the password from the first line of a file.' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall passwd" store' -l 'store' -d 'The embedded wall\'s SQLite file (default: $ANYWALL_STORE, else $XDG_DATA_HOME/anywall/wall.sqlite).' -rF
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall passwd" version' -l 'version' -d 'Show the version.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall passwd" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'anywall' -n '__anywall_should_offer_completions_for_flags_or_options "anywall help" version' -l 'version' -d 'Show the version.'
