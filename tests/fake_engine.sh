#!/usr/bin/env bash
# A misbehaving UHP engine for the tournament tests. It speaks enough UHP to start, take
# options and load games, then misbehaves on `bestmove` according to its one argument:
#   illegal  answers `pass`, which is illegal whenever another move exists
#   crash    exits with status 3
#   hang     never answers (the process sleeps until it is killed)
#   error    answers `err …`, a protocol error
#   hive-only  refuses `newgame Intellector…` with `err …`, as a Hive-only engine does
#   base-only  declares no expansions (no capabilities line), then answers as `error` does
#   crash-later  answers its first `bestmove` with `wS1` (legal as White's first move of a
#              Hive game), then exits with status 3 on the next one
#   garbage    introduces itself with an escape sequence in its `id` line, writes one to standard
#              error, and answers `bestmove` with escape sequences, a NUL and a line of 2 MiB
#   garbage-err  answers `bestmove` with `err` and an escape sequence and a NUL
mode="${1:-illegal}"
case "$mode" in
    base-only) printf 'id fake-%s 1.0\nok\n' "$mode" ;;
    garbage) printf 'id \033[1mfake-garbage 1.0\nMosquito;Ladybug;Pillbug\nok\n' ;;
    *) printf 'id fake-%s 1.0\nMosquito;Ladybug;Pillbug\nok\n' "$mode" ;;
esac
while IFS= read -r line; do
    case "$line" in
        newgame*)
            game="${line#newgame}"
            game="${game# }"
            case "$mode:$game" in
                hive-only:Intellector*) printf 'err Unable to parse game type.\nok\n' ;;
                *) printf '%s\nok\n' "$game" ;;
            esac
            ;;
        "options set "*)
            set -- $line
            printf '%s;string;%s;%s\nok\n' "$3" "$4" "$4"
            ;;
        bestmove*)
            case "$mode" in
                illegal) printf 'pass\nok\n' ;;
                crash) exit 3 ;;
                crash-later)
                    if [ -n "$played" ]; then exit 3; fi
                    played=1
                    printf 'wS1\nok\n'
                    ;;
                # exec, so that killing the engine's process stops the sleep too.
                hang) exec sleep 600 ;;
                garbage)
                    printf 'oops \033[31mred\n' >&2
                    printf 'wQ \033[2J\000'
                    head -c 2097152 /dev/zero | tr '\0' x
                    printf '\nok\n'
                    ;;
                garbage-err) printf 'err \033[31mbad\000\nok\n' ;;
                *) printf 'err Something went wrong.\nok\n' ;;
            esac
            ;;
        exit) exit 0 ;;
        *) printf 'err Invalid command.\nok\n' ;;
    esac
done
