#!/usr/bin/env bash
# comb as a tournament engine whose command line names no path of this machine: the tests set
# COMB_ENGINE to the binary under test, so a game file's settings (which hold every engine's
# command) are the same wherever the tests run. COMB_ENGINE_ARGS, when set, goes before the
# tournament's arguments (for example `--option Evaluation=Classic`), also outside the settings.
# shellcheck disable=SC2086 # COMB_ENGINE_ARGS is split into words on purpose
exec "$COMB_ENGINE" ${COMB_ENGINE_ARGS:-} "$@"
