#!/bin/sh
# timeout: 300
# The uncore fuzzer on the K8 northbridge, with the oracles of every part:
# /tests/t_95_fuzz.sh says what they are.
# shellcheck source=../t_95_fuzz.sh
. /tests/t_95_fuzz.sh
