#!/bin/sh
# Freeze on overflow and PMI delivery, with the simulator alone: UBox
# counter 0 is programmed through debugfs "msr" with ov_en, an injected
# burst wraps it, package 0 freezes freeze_delay_ns later and core 0 gets
# a real NMI. The simulator counts it and leaves the claim to a driver, as
# the part would: with none loaded, the kernel reports each PMI as an
# unknown NMI, the report every other test counts as a failure.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

insmod "$MODDIR/uncore_sim.ko" || { echo "not ok - insmod uncore_sim"; exit 1; }
nmi_mark t_35
unknown_is() { [ "$(unknown_nmis_since t_35)" = "$1" ]; }
expect_kernel_report_begin
top=$((1 << 48))
# UBox CTL0: event 0x42, umask 0x08, ov_en, en. GLOBAL_CTL bits.
UEV=0x500842
UNFRZ=$((1 << 29)) WAKE=$((1 << 30))

# msr ADDR VALUE...: write package 0's MSRs, pairs of address and value.
msr() {
	_l=""
	while [ $# -ge 2 ]; do
		_l="${_l}pkg=0 msr=$1 value=$2
"
		shift 2
	done
	printf '%s' "$_l" >"$SIM/msr" || diag "msr write failed: $_l"
}

# arm PRELOAD GLOBAL_CTL: clear the overflow bits, preload UBox counter 0
# and write GLOBAL_CTL (with unfrz_all to leave a previous freeze).
arm() { msr 0x708 1 0x701 2 0x709 "$1" 0x700 "$2"; }

inj() { sim_inject "pkg=0 box=ubox event=0x42 umask=0x08 count=$1"; }

# snap, then f KIND KEY: a value of package 0's "global" or "stats" line.
snap() { ST=$(sim_state); }
f() { echo "$ST" | sed -n "s/^pkg0 $1 .* $2=\([0-9a-fx]*\).*/\1/p"; }
ctr0() { printf '%d' "$(echo "$ST" | sed -n 's/^pkg0 ubox ctr0 .* ctr=\(0x[0-9a-f]*\) .*/\1/p')"; }
pmis() { echo $(($(f stats pmis_sent) + $(f stats pmis_dropped))); }

# until_is EXPR WANT: poll (10 s, scaled) until $(EXPR) on a fresh snap is
# WANT. Run by ok in a subshell: snap again before reading ST after it.
until_is() {
	_n=$((100 * UNCORE_TIMEOUT_SCALE))
	while [ "$_n" -gt 0 ]; do
		snap
		[ "$(eval "$1")" = "$2" ] && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	diag "$1: got $(eval "$1") want $2"
	return 1
}

is "$(cat "$SIMPARAM/freeze_delay_ns")" 1000 "freeze_delay_ns defaults to 1 us"

msr 0x705 "$UEV"
arm $((top - 10)) $((UNFRZ | WAKE | 1))
echo 1 >"$SIM/reset_stats"
inj 20
ok "until_is 'f stats pmis_sent' 1" "overflow with ov_en: an NMI on core 0"
ok "until_true 'unknown_is 1'" "nobody claims it: the kernel reports an unknown NMI"
snap
is "$(f global frozen)" 1 "package 0 globally frozen"
is "$(f global freeze_pending) $(f global pmi_owed)" "0 0" "nothing pending or owed after delivery"
is "$(f global status)" 0x000000002 "GLOBAL_STATUS.ov_u set"
is "$(f stats freezes) $(f stats pmis_dropped)" "1 0" "one freeze, no PMI dropped with wk_on_pmi = 1"
is "$(ctr0)" 10 "the counter wrapped once: 2^48 - 10 + 20 = 10"

inj 5
snap
is "$(ctr0) $(f stats frozen_drops)" "10 1" "injected while frozen: not counted, one frozen_drop"

# Box bit cleared, global bit still set: unfrozen, an overflow freezes nothing.
msr 0x708 1 0x709 $((top - 1)) 0x700 $((UNFRZ | WAKE | 1))
inj 3
sleep 1
snap
is "$(f global frozen) $(f global freeze_pending) $(f stats freezes)" "0 0 1" "no new freeze while ov_u is still set"
is "$(ctr0)" 2 "the counter kept counting"

# Both cleared, wk_on_pmi = 0: a new freeze; the PMI is sent or, if core 0
# was idle, dropped.
arm $((top - 1)) $((UNFRZ | 1))
inj 1
ok "until_is 'f stats freezes' 2" "both bits cleared: the next overflow freezes again"
ok "until_is pmis 2" "wk_on_pmi = 0: the PMI was sent or dropped"

# pmi_core_sel = 0: freeze, no PMI.
arm $((top - 1)) "$UNFRZ"
inj 1
ok "until_is 'f stats freezes' 3" "pmi_core_sel = 0: frozen"
snap
is "$(f global pmi_owed) $(pmis)" "0 2" "pmi_core_sel = 0: no PMI"

# A 4 s delay on the running clock: counting goes on until the freeze.
echo 4000000000 >"$SIMPARAM/freeze_delay_ns"
arm $((top - 1)) $((UNFRZ | WAKE | 1))
inj 1
inj 4
snap
if [ "$(f global freeze_pending)" = 1 ]; then
	is "$(f global frozen) $(ctr0) $(f stats frozen_drops)" "0 4 1" "before freeze_at: not frozen, still counting"
else
	skip "before freeze_at: not frozen, still counting" "guest too slow for a 4 s window"
fi
ok "until_is 'f global frozen' 1" "frozen once sim time reached freeze_at"
ok "until_is pmis 3" "its PMI delivered"

# A frozen sim clock never reaches freeze_at: the timer applies it at once.
echo freeze >"$SIM/clock"
echo 1000000000 >"$SIMPARAM/freeze_delay_ns"
arm $((top - 1)) $((UNFRZ | WAKE | 1))
inj 1
ok "until_is 'f stats freezes' 5" "frozen sim clock: the pending freeze applied at once"
ok "until_is pmis 4" "and its PMI delivered"
echo run >"$SIM/clock"
echo 1000 >"$SIMPARAM/freeze_delay_ns"

snap
is "$(f stats nmi_busy)" 0 "no access refused to an NMI"
# The kernel rate-limits the report to 10 in 5 s; there are 4 or 5 here.
is "$(unknown_nmis_since t_35)" "$(f stats pmis_sent)" "one unknown NMI reported for each PMI sent, none for another NMI"

# frozen_ns times each global freeze in sim time, from frz_all or the
# freeze on overflow to unfrz_all (make bench's frozen share).
FRZ=$((1 << 31))
echo freeze >"$SIM/clock"
msr 0x700 "$UNFRZ"
echo 1 >"$SIM/reset_stats"
msr 0x700 "$FRZ"
echo "advance 3000" >"$SIM/clock"
msr 0x700 "$UNFRZ" 0x700 "$FRZ"
echo "advance 1000" >"$SIM/clock"
msr 0x700 "$UNFRZ"
echo "advance 500" >"$SIM/clock"
msr 0x700 "$UNFRZ"
snap
is "$(f stats frozen_ns) $(f stats frozen_max_ns)" "4000 3000" "two freezes of 3000 and 1000 ns: frozen_ns 4000, frozen_max_ns 3000"
echo run >"$SIM/clock"
expect_kernel_report_end
ok "! dmesg | grep -q 'simulated PMI not seen'" "every simulated PMI seen in time"
ok "rmmod uncore_sim" "unload with PMIs delivered"
