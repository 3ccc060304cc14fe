#!/bin/sh
# Register accesses per operation, the deterministic figures of make
# bench's first table (tests/vm/bdx/bench.sh), against the expected table
# tests/vm/bdx/access.expected. A change that adds or removes an access
# fails here until that file and Documentation/benchmarks.rst (checked by
# tests/host/access_doc.sh) say so, in the same commit, with the reason.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
access_check /tests/bdx/bench.sh /tests/bdx/access.expected
unload_modules
