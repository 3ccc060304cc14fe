#!/bin/sh
# Periods owed across perf's own stop and start (review pmi-protocol N4).
# perf stops and starts a sampling event on its own: at every tick of a
# busy CPU in frequency mode, at every multiplexing rotation, at a period
# ioctl. A period that ended since the event's last sample is emitted by
# the box's timer (CBo: timer sampling, every sample tick) or by the pass
# of the overflow on its way (PMI); the samples of such a period must not
# be lost when perf's stop and start come first. Checked against the
# injected truth:
# - frequency mode, CBo 0 (timer) and iMC 0 (PMI), a busy loop on the
#   reading CPU so that perf's tick runs there: 30 bursts of 1000, 20 ms
#   apart; the samples' periods add up to the 30000 less at most the last
#   partial period (less than the largest period);
# - frequency mode, CBo 0 and iMC 0 clockticks in leader-sampling groups
#   beside a busy loop: each sample's period is the count its read shows
#   since the sample before, though perf's tick refits the period
#   mid-period at every tick;
# - multiplexing, five events on CBo 0's four counters, -c 1000, perf
#   rotating them every 2 ms: 30 bursts of 1000, each counted by the four
#   events on the counters as it lands, so 120 samples of 1000 in all.
# A burst's period ends 1 ms (sample_tick_us) before the CBo's timer emits
# it; a tick (4 ms) or a rotation (2 ms) lands in between for about one
# burst in four or in two.
# timeout: 600
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

load_modules || exit 1
topo_init
DATA=/tmp/perf.data
CPU0=$(first_cpu 0)
# Without breadth (the debug guest, where a burst under KASAN takes a
# second and a busy vCPU slows every other one under TCG), 10 bursts, and
# of the frequency-mode cases only CBo 0's clockticks: the paths are the
# same, and lockdep and KASAN see them.
N=30
breadth || N=10

# bursts LINE [spin]: N bursts of LINE, 20 ms apart, each settled, on the
# reading CPU; with spin, beside a busy loop there (perf's tick runs on a
# busy CPU), niced so that the bursts come on time.
bursts() {
	cat >/tmp/bursts.sh <<EOF
. /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
SPIN=
[ '${2:-}' = spin ] && spin_start
i=0
while [ \$i -lt $N ]; do
	sim_inject '$1' && sim_settle 0 || { [ -z "\$SPIN" ] || kill \$SPIN; exit 1; }
	sleep 0.02
	i=\$((i + 1))
done
[ -z "\$SPIN" ] || kill \$SPIN
# The last burst's samples come at the next sample tick.
sleep 0.1
EOF
}

# periods NAME: "SAMPLES SUM MAX" of the periods of package 0's samples
# of event NAME in $DATA ("[CPU] PERIOD NAME:" lines).
periods() {
	perf script -i $DATA -F cpu,period,event 2>/dev/null |
		awk -v c="$(printf '[%03d]' "$CPU0")" -v e="$1:" '
		$1 == c && $3 == e { n++; s += $2; if ($2 > m) m = $2 }
		END { print n + 0, s + 0, m + 0 }'
}

# freq NAME EVENT INJECTION: -F 200 recording of N bursts of 1000.
freq() {
	bursts "$3 count=1000" spin
	if perf record -q -a -o $DATA -F 200 -e "$2,name=$1/" -- \
		taskset -c "$CPU0" sh /tmp/bursts.sh >/dev/null 2>/tmp/rec.err; then
		# shellcheck disable=SC2046 # three numbers
		set -- "$1" $(periods "$1")
		ok "[ $3 -le $((N * 1000)) ] && [ $((N * 1000 - $3)) -lt $4 ]" \
			"-F 200, $1: $2 samples, periods adding up to $3 of $((N * 1000)), short by less than the largest period ($4)"
	else
		diag "perf record: $(cat /tmp/rec.err)"
		ok false "-F 200, $1: the recording ran"
	fi
}
breadth && freq cbo 'uncore_cbox_0/event=0x35,umask=0x8' 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08'
breadth && freq imc 'uncore_imc_0/event=0x04,umask=0x03' 'pkg=0 box=imc idx=0 event=0x04 umask=0x01'

# Frequency mode, sample by sample: perf's tick stops the event, fits a new
# sample_period to its rate (perf_adjust_period()) and starts it again,
# mid-period. The period each sample reports must still be what the event
# counted since the sample before. With leader sampling ({...}:S) a sample
# reads the leader's count, so the periods are the differences of
# consecutive reads, exactly. A clock event counts between any two ticks,
# so on the busy reading CPU every tick adjusts its period.
# read_periods: "SAMPLES BAD FIRST DUPS" over the leaders' samples in
# $DATA: BAD is the number whose period differs from the count since the
# sample before (per event instance, from 0), FIRST the first such,
# period/count; each such sample, the one before it and the box's sample
# figures (debugfs samples: lost, throttled, over budget) go to diag lines.
# DUPS is the number of samples perf record wrote twice, left out: its
# perf_mmap__push() (tools/perf/util/mmap.c, 6.1 and 6.12) reads a
# buffer's head for where to start next time, then again for where to
# stop copying now, so a record the kernel writes between the two reads
# is copied twice, on this pass and the next, byte for byte. Here the
# clock keeps sampling while perf record reads the buffers as the
# workload ends, and under TCG about one recording in a hundred has such
# a copy. A copy is a sample with the time and read values of the one
# before it (no sample of the driver's can be: a period is at least one
# count) and a FINISHED_ROUND record, which perf record writes after each
# pass, between the two in the file; one without is a bad sample.
read_periods() {
	perf report -D -i $DATA 2>/dev/null | awk '
		function num(h,  i, n) {
			n = 0
			for (i = 3; i <= length(h); i++)
				n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return n
		}
		function flush() {
			if (vals == "")
				return
			if (last[id] == p " " t vals) {
				ndup++
				dup1[ndup] = lastoff[id]
				dup2[ndup] = off
			} else {
				last[id] = p " " t vals
				lastoff[id] = off
				print id, p, v, t
			}
			vals = ""
		}
		/PERF_RECORD_FINISHED_ROUND/ { round[++nround] = num($3); next }
		/PERF_RECORD_SAMPLE/ { flush(); p = $0; sub(/.* period: /, "", p); sub(/ .*/, "", p); t = $1 " " $2; off = num($3); want = 1; next }
		want && /^\.\.\.\.\. id .*value/ { if (vals == "") { id = $3; sub(/,$/, "", id); v = $NF } vals = vals " " $NF; next }
		want && vals != "" { flush(); want = 0 }
		END {
			flush()
			for (i = 1; i <= ndup; i++) {
				copy = 0
				for (r = 1; r <= nround; r++)
					if (round[r] > dup1[i] && round[r] < dup2[i])
						copy = 1
				if (copy)
					dups++
				else
					print "twice", dup1[i], dup2[i]
			}
			print "dups", dups + 0
		}' | {
		n=0 bad=0 first=- d=0 dups=0
		while read -r id p v c t; do
			[ "$id" = dups ] && { dups=$p; break; }
			if [ "$id" = twice ]; then
				[ $bad = 0 ] && first=twice
				bad=$((bad + 1))
				echo "# the samples at file offsets $p and $v are one, twice, in one pass of perf record" >&2
				continue
			fi
			eval "d=\$((0x$v - \${last_$id:-0}))"
			eval "before=\${seen_$id:-none}"
			eval "last_$id=\$((0x$v))"
			eval "seen_$id='$p $v at $c $t'"
			n=$((n + 1))
			if [ "$d" != "$p" ]; then
				[ $bad = 0 ] && first=$p/$d
				bad=$((bad + 1))
				echo "# sample $n (event $id): period $p, value $v at $c $t; the one before: ${before:-none}" >&2
			fi
		done
		echo "$n $bad $first $dups"
	} 2>/tmp/bad_samples
}
freq_read() {
	# shellcheck disable=SC2016 # $SPIN is the inner shell's
	if perf record -q -a -o $DATA -F 200 \
		-e "{$2/clockticks,name=lead/,$2/clockticks,name=sib/}:S" -- \
		taskset -c "$CPU0" sh -c '. /tests/lib/lib.sh; . /tests/lib/uncore_lib.sh
			spin_start; sleep 0.5; kill $SPIN' \
		>/dev/null 2>/tmp/rec.err; then
		pmu=$2
		# shellcheck disable=SC2046 # four words
		set -- "$1" $(read_periods)
		[ "$5" = 0 ] || diag "$1: perf record wrote $5 sample(s) twice; left out"
		ok "[ $2 -ge 20 ] && [ $3 = 0 ]" \
			"-F 200, $1 clockticks beside a busy loop: each of $2 samples' periods is the count since the sample before ($3 are not, the first $4)" || {
			head -n 10 /tmp/bad_samples
			grep "^# pmu\|^$pmu " /sys/kernel/debug/uncore_pmu/samples | sed 's/^# //; s/^/# /'
		}
	else
		diag "perf record: $(cat /tmp/rec.err)"
		ok false "-F 200, $1 clockticks: the recording ran"
	fi
}
freq_read cbo uncore_cbox_0
breadth && freq_read imc uncore_imc_0

# Multiplexing: five events, four counters.
MUX=$PMUS/uncore_cbox_0/perf_event_mux_interval_ms
mux0=$(cat "$MUX")
echo 2 >"$MUX"
bursts 'pkg=0 box=cbox idx=0 event=0x35 umask=0x08 count=1000'
ev=""
for n in a b c d e; do ev="$ev${ev:+,}uncore_cbox_0/event=0x35,umask=0x8,name=$n/"; done
if perf record -q -a -o $DATA -c 1000 -e "$ev" -- \
	taskset -c "$CPU0" sh /tmp/bursts.sh >/dev/null 2>/tmp/rec.err; then
	all=0
	for n in a b c d e; do
		# shellcheck disable=SC2046 # three numbers
		set -- $(periods $n)
		diag "event $n: $1 samples"
		all=$((all + $2))
	done
	is "$all" $((N * 4000)) "five events on four counters, rotated every 2 ms: periods adding up to $((N * 4000))"
else
	diag "perf record: $(cat /tmp/rec.err)"
	ok false "multiplexed recording ran"
fi
echo "$mux0" >"$MUX"
is "$(sim_violations)" 0 "no reserved bit written"
unload_modules
