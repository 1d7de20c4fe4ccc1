#!/usr/bin/env bash
# comb as a tournament engine whose command line names no path of this machine: the tests set
# COMB_ENGINE to the binary under test, so a game file's settings (which hold every engine's
# command) are the same wherever the tests run.
exec "$COMB_ENGINE" "$@"
