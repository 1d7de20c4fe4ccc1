#!/usr/bin/env bash
# comb with one reply altered, for the conformance tests: `fake_conformance.sh COMB MODE`.
#   queen-first  lists the queen among white's first moves (against the opening rule)
#   no-ants      leaves every ant move out of `validmoves` lines
comb="$1"
case "$2" in
    queen-first) exec "$comb" | sed -u 's/^wS1;wB1;wG1;wA1$/wS1;wB1;wG1;wA1;wQ/' ;;
    no-ants) exec "$comb" | sed -u -E 's/(^|;)[wb]A[123] [^;]*//g; s/^;//' ;;
esac
