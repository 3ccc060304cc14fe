# shellcheck shell=sh
# Helpers of the uncore-top tests (t_87_uncore_top.sh of each part), after
# lib.sh and uncore_lib.sh: what tools/uncore-top (/usr/bin/uncore-top in
# the guest) prints and writes to CSV, against what the simulator was made
# to see, exactly (Documentation/uncore-top.rst, "Testing").
#
# A test describes the view it expects, in the view's column order:
#   UT_COUNTS  the CSV's count columns (<name>_<count unit>)
#   UT_RATES   the CSV's rate columns (<name>_<rate unit>, "/" as "p")
#   UT_SPEC    per column "div:fmt:all" as the view has them (1e6:%.1f:sum)
#   UT_TITLE   the part's name in the header's first line
# and a function ut_batch S MS, which injects the S-th batch of known
# counts in one inject per package (so that it lands in one interval) and
# sets E_<p>, for each package p of PKGS, to the counts every column must
# then show, the clock's over MS ms of sim time included; then calls
# ut_exact.

# shellcheck disable=SC2034 # for the tests that source this file
UT=/usr/bin/uncore-top

# ut_rows FILE: data rows written so far.
ut_rows() { if [ -f "$1" ]; then echo $(($(wc -l <"$1") - 1)); else echo 0; fi; }

# ut_wait_rows FILE N: until FILE has N data rows (60 s, scaled: perf reads
# every alias file of every PMU before its first interval).
ut_wait_rows() {
	_n=$((600 * ${UNCORE_TIMEOUT_SCALE:-1}))
	while [ "$(ut_rows "$1")" -lt "$2" ]; do
		_n=$((_n - 1))
		[ $_n -gt 0 ] || { diag "timed out waiting for $2 rows of $1"; return 1; }
		sleep 0.1
	done
}

# ut_other_view VIEW: uncore-top asked for VIEW, another part's, which it
# must refuse: "STATUS P A", its exit status and how many columns it named
# by a PMU not here (P) and by an alias the PMUs here lack (A). Its message
# goes to the log as diagnostics, and stays in /tmp/ut.err.
ut_other_view() {
	$UT -n 1 --view "$1" >/tmp/ut.out 2>/tmp/ut.err
	_rc=$?
	sed 's/^/# /' /tmp/ut.err >&2
	echo "$_rc $(grep -c '^  [a-z_]*: no uncore_[a-z_*]* PMU$' /tmp/ut.err)" \
		"$(grep -c '^  [a-z_]*: no .* with events/' /tmp/ut.err)"
}

# ut_mainline_tree DIR ALIAS...: DIR/bus/event_source/devices holds the
# driver's uncore PMUs as a machine whose driver lacks the aliases ALIAS
# shows them (mainline's intel_uncore, which names those events otherwise):
# each PMU's type, cpumask, format/ and events/ but ALIAS. For
# UNCORE_TOP_SYS=DIR.
ut_mainline_tree() {
	rm -rf "$1/bus"
	_root=$1/bus/event_source/devices
	shift
	for _p in /sys/bus/event_source/devices/uncore_*; do
		_n=$_root/${_p##*/}
		mkdir -p "$_n/format" "$_n/events"
		cat "$_p/type" >"$_n/type"
		cat "$_p/cpumask" >"$_n/cpumask"
		for _f in "$_p"/format/*; do cat "$_f" >"$_n/format/${_f##*/}"; done
		for _f in "$_p"/events/*; do
			[ -e "$_f" ] || continue
			_a=${_f##*/}
			case " $* " in *" ${_a%.scale} "* | *" ${_a%.unit} "* | *" $_a "*) continue ;; esac
			cat "$_f" >"$_n/events/$_a"
		done
	done
}

# ut_field CSV K P NAMES...: columns NAMES of interval K, package P, by
# header name (as a user's script would), on one line.
ut_field() {
	_csv=$1 _k=$2 _p=$3
	shift 3
	awk -F, -v k="$_k" -v p="$_p" -v f="$*" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 != t { t = $1; n++ }
		n == k && $2 == p { m = split(f, w, " "); s = ""
			for (i = 1; i <= m; i++) s = s (i > 1 ? " " : "") $c[w[i]]; print s }' "$_csv"
}

# ut_shown OUT TIME P: the screen row of package P (or "all") at TIME (s,
# as the CSV has it).
ut_shown() {
	awk -v t="$(awk -v t="$2" 'BEGIN { printf "%.3f", t }')" -v p="$3" '$1 == t && $2 == p' "$1"
}

# ut_screen TIME DT P COUNTS: the screen row uncore-top must print for
# COUNTS (one per column) over DT seconds.
ut_screen() {
	echo "$4" | awk -v t="$1" -v dt="$2" -v p="$3" -v spec="$UT_SPEC" '{
		n = split(spec, s, " ")
		printf "%10.3f %4s", t, p
		for (i = 1; i <= n; i++) {
			split(s[i], f, ":")
			printf " %11s", (dt > 0 ? sprintf(f[2], $i / f[1] / dt) : "-")
		}
		printf "\n" }'
}

# ut_csv_rates COUNTS DT: the CSV's rate columns for COUNTS over DT.
ut_csv_rates() {
	echo "$1" | awk -v dt="$2" -v spec="$UT_SPEC" '{
		n = split(spec, s, " ")
		for (i = 1; i <= n; i++) {
			split(s[i], f, ":")
			printf "%s%.6f", (i > 1 ? " " : ""), $i / f[1] / dt
		}
		printf "\n" }'
}

# ut_exact: with the sim clock frozen, uncore-top -i 2000 -n 5 --csv; once
# the first interval is printed, batch 1 and 250 ms of sim time, once the
# second is, batch 2 and 100 ms: each lands in one interval (2 and 3), and
# every count of every interval in the CSV (0 in 1, 4 and 5), every rate
# on the screen and in the CSV, and the all-packages row of interval 2, is
# compared exactly. The output is left in /tmp/ut.out and /tmp/ut.csv.
ut_exact() {
	_csv=/tmp/ut.csv
	_np=$(echo "$PKGS" | wc -w)
	rm -f $_csv
	echo freeze >"$SIM"/clock
	$UT -i 2000 -n 5 --csv $_csv >/tmp/ut.out 2>/tmp/ut.err &
	_ut=$!
	if ut_wait_rows $_csv "$_np"; then
		ut_batch 1 250 && echo "advance 250000000" >"$SIM"/clock
		for _p in $PKGS; do eval "A_$_p=\$E_$_p"; done
	fi
	if ut_wait_rows $_csv $((2 * _np)); then
		ut_batch 2 100 && echo "advance 100000000" >"$SIM"/clock
		for _p in $PKGS; do eval "B_$_p=\$E_$_p"; done
	fi
	wait $_ut
	is "$?" 0 "uncore-top -n 5 exits 0"
	echo run >"$SIM"/clock
	sed 's/^/# /' /tmp/ut.out
	is "$(head -n 1 /tmp/ut.out | sed 's/, every.*//')" "uncore-top: $UT_TITLE" \
		"the view picked is the part's: $UT_TITLE"
	is "$(ut_rows $_csv)" $((5 * _np)) "CSV: one row per package and interval"
	ok "[ ! -s /tmp/ut.err ]" "no warning (nothing multiplexed, every event opened)"
	[ -s /tmp/ut.err ] && sed 's/^/# err: /' /tmp/ut.err
	_zero=$(echo "$UT_COUNTS" | awk '{ for (i = 1; i <= NF; i++) printf "%s0", (i > 1 ? " " : "") }')
	for _p in $PKGS; do
		_a="" _b=""
		eval "_a=\$A_$_p _b=\$B_$_p"
		for _k in 1 2 3 4 5; do
			case $_k in
			2) _want=$_a ;;
			3) _want=$_b ;;
			*) _want=$_zero ;;
			esac
			# shellcheck disable=SC2086 # the column names
			is "$(ut_field $_csv $_k "$_p" $UT_COUNTS)" "$_want" \
				"CSV interval $_k package $_p: $UT_COUNTS"
			_t=$(ut_field $_csv $_k "$_p" time_s)
			_dt=$(ut_field $_csv $_k "$_p" interval_s)
			is "$(ut_shown /tmp/ut.out "$_t" "$_p")" "$(ut_screen "$_t" "$_dt" "$_p" "$_want")" \
				"screen interval $_k package $_p: the rates of those counts over $_dt s"
			[ $_k = 2 ] || [ $_k = 3 ] || continue
			# shellcheck disable=SC2086 # the column names
			is "$(ut_field $_csv $_k "$_p" $UT_RATES)" "$(ut_csv_rates "$_want" "$_dt")" \
				"CSV interval $_k package $_p: rates"
		done
	done
	[ "$_np" -gt 1 ] || return 0
	# the packages' rates (each over its own interval_s), added up
	_t=$(ut_field $_csv 2 "${PKGS%% *}" time_s)
	is "$(ut_shown /tmp/ut.out "$_t" all)" "$(for _p in $PKGS; do
		eval "echo \$A_$_p $(ut_field $_csv 2 "$_p" interval_s)"
	done | awk -v t="$_t" -v spec="$UT_SPEC" '{ n = split(spec, s, " ")
			for (i = 1; i <= n; i++) { split(s[i], f, ":"); r[i] += $i / f[1] / $(n + 1) } }
		END { printf "%10.3f %4s", t, "all"
			for (i = 1; i <= n; i++) { split(s[i], f, ":")
				printf " %11s", (f[3] == "sum" ? sprintf(f[2], r[i]) : "-") }
			printf "\n" }')" \
		"screen interval 2, all packages: the rates added up where the view sums them"
}
