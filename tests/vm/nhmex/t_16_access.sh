#!/bin/sh
# Register accesses per operation on the Xeon 7500's boxes (make bench
# UNCORE_BENCH=nhmex, tests/vm/nhmex/bench.sh) against the expected table
# tests/vm/nhmex/access.expected: as the Broadwell's t_16_access.sh.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
access_check /tests/nhmex/bench.sh /tests/nhmex/access.expected
unload_modules
