#!/bin/sh
# The module as a user installs it: uncore_pmu.ko built by dkms from the
# sources the package ships (tools/vm/build-dkms.sh, against the stock
# Debian headers) and installed where `dkms install` puts it. modprobe
# resolves uncore_pmu to that copy, not the build tree's, loads it, and it
# counts exactly; modprobe -r unloads it. Only the stock guest has the
# dkms copy; the others skip.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

kver=$(uname -r)
dkms_ko=/lib/modules/$kver/updates/dkms/uncore_pmu.ko
if [ ! -f "$dkms_ko" ]; then
	skip "modprobe of the dkms-built module" "this guest has no dkms copy"
	exit 0
fi

# modules.dep names each module once, by path: the one modprobe loads.
dep=$(sed -n 's|^\([^:]*/uncore_pmu\.ko\):.*|\1|p' "/lib/modules/$kver/modules.dep")
is "$dep" "updates/dkms/uncore_pmu.ko" "depmod resolves uncore_pmu to the dkms copy"

# The simulator is never installed by dkms: the tests load it by path.
insmod "$MODDIR/uncore_sim.ko" || { diag "insmod uncore_sim failed"; exit 1; }
ok "modprobe uncore_pmu" "modprobe uncore_pmu loads"
topo_init
cbo=$(lowest_box cbox has_cbo 24) || { echo "not ok - package 0 has a CBo"; exit 1; }
ok "[ -d $PMUS/$cbo ]" "the dkms copy registers $cbo"
cbo_counts_500 "$cbo" "$(first_cpu 0)"
is "$(sim_violations)" 0 "no reserved bit written"
ok "modprobe -r uncore_pmu" "modprobe -r unloads it"
ok "! module_loaded uncore_pmu" "and it is gone"
unload_modules
