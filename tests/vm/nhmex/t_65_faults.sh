#!/bin/sh
# timeout: 300
# An MSR fault on the Xeon 7500 (tests/vm/t_65_faults.sh has every kind on
# Broadwell; the fault path is the core's, this checks that it holds
# here): the U-box counter's registers raise #GP for a while, a C-box
# event counts beside it (uncore_lib.sh, msr_fault_case()).
# shellcheck source=../lib.sh
. /tests/lib.sh
# shellcheck source=../uncore_lib.sh
. /tests/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
msr_fault_case 0xc10-0xc11 uncore_ubox uncore_cbox_0 \
	"pkg=0 box=ubox event=0x50" "pkg=0 box=cbox idx=0 event=0x14 umask=0x1" \
	'uncore_ubox/event=0x50,name=a/,uncore_cbox_0/event=0x14,umask=0x1,name=b/' "$(first_cpu 0)"
unload_modules
