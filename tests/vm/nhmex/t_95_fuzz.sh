#!/bin/sh
# timeout: 300
# The uncore fuzzer on the Xeon 7500, with the oracles of every part:
# /tests/t_95_fuzz.sh says what they are.
# shellcheck source=../t_95_fuzz.sh
. /tests/t_95_fuzz.sh
