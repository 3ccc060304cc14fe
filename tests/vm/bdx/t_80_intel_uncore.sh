#!/bin/sh
# uncore_pmu refuses to load beside intel_uncore, which claims the same PMU
# names and PCI devices, says what to do, and leaves nothing registered.
# The real intel_uncore refuses to load in a VM, so tests/fixtures/
# fake_intel_uncore.ko takes its place in each of the two ways it can be
# there: its BDX PCI driver, or an uncore PMU name already taken.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh

pmus() { n=0; for d in /sys/bus/event_source/devices/uncore_*; do [ -e "$d" ] && n=$((n + 1)); done; echo $n; }
# busybox insmod retries a failed finit_module() with init_module(), so a
# refusal may be printed twice: count that it was printed at all.
said() { dmesg | grep 'uncore_pmu:' | grep -c 'rmmod intel_uncore'; }

insmod /modules/uncore_sim.ko || exit 1

insmod /modules/fake_intel_uncore.ko as=pci
ok $? "stand-in for intel_uncore's bdx_uncore PCI driver loaded"
before=$(said)
ok "! insmod /modules/uncore_pmu.ko" "uncore_pmu refuses to load beside intel_uncore's PCI driver"
ok "[ $(said) -gt $before ]" "and says to rmmod intel_uncore"
is "$(pmus)" 0 "no PMU registered"
rmmod fake_intel_uncore

insmod /modules/fake_intel_uncore.ko as=pmu
ok $? "stand-in for intel_uncore's uncore_ubox PMU loaded"
before=$(said)
# The duplicate sysfs name makes the driver core warn with a stack dump.
expect_kernel_report_begin
insmod /modules/uncore_pmu.ko
rc=$?
expect_kernel_report_end
ok "[ $rc != 0 ]" "uncore_pmu refuses to load when uncore_ubox is taken"
ok "[ $(said) -gt $before ]" "and says to rmmod intel_uncore"
is "$(pmus)" 1 "only the stand-in's PMU is registered: nothing half-registered"
rmmod fake_intel_uncore

ok "insmod /modules/uncore_pmu.ko" "with intel_uncore gone, uncore_pmu loads"
ok "[ -d /sys/bus/event_source/devices/uncore_cbox_3 ]" "and registers its PMUs"
unload_modules
