#!/bin/sh
# timeout: 300
# An MSR fault on the NetBurst Xeon MP (tests/vm/t_65_faults.sh has every
# kind on Broadwell): the MSR of the IBUSQ unit's counter 0, which holds
# both the counter and its control half, raises #GP for a while, an ISNPQ
# event counts beside it (uncore_lib.sh, msr_fault_case()). The fault
# must end through this part's own counter read.
# shellcheck source=../lib.sh
. /tests/lib.sh
# shellcheck source=../uncore_lib.sh
. /tests/uncore_lib.sh
# shellcheck source=p4mp_lib.sh
. /tests/p4mp/p4mp_lib.sh

load_modules || exit 1
p4_topo
msr_fault_case "$(msr_of ibusq 0)" uncore_ibusq uncore_isnpq \
	"pkg=0 box=ibusq idx=0" "pkg=0 box=isnpq idx=0" \
	'uncore_ibusq/qual=0x1,name=a/,uncore_isnpq/qual=0x1,name=b/' "$FIRST_0"
unload_modules
