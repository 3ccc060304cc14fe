#!/bin/sh
# timeout: 300
# Who may open uncore events, and who may touch the driver's and the
# simulator's controls. An uncore event is CPU-wide and counts the kernel
# too, so perf's rules for such events apply unchanged (Documentation/
# uncore_pmu.rst, "Privileges"): uid 1000 (tests/vm/bin/privs.c) with no
# capability, CAP_PERFMON or CAP_SYS_ADMIN opens a counting event on
# uncore_cbox_0, a sampling one on uncore_imc_0, a per-task one and one
# with exclude_kernel, at each perf_event_paranoid, and gets the errno the
# table below gives. What CAP_PERFMON opens at paranoid 2 (mainline's
# default) counts and samples exactly what root injects. The debugfs files
# of both modules are root's alone, whatever their directory allows, and so
# are writes to the modules' parameters.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh

PAR=/proc/sys/kernel/perf_event_paranoid
DBG=/sys/kernel/debug
U=1000
par0=$(cat $PAR)
dbgmode=$(stat -c %a $DBG)
# Whatever happens, the guest's later tests find both as they were.
trap 'echo "$par0" >$PAR; chmod "$dbgmode" $DBG' EXIT

load_modules || exit 1
topo_init
CPU0=$(first_cpu 0)
# TOR_INSERTS.ALL (event 0x35, umask 0x08) and iMC CAS_COUNT.ALL (0x04, 0x03).
CBO=0x835
IMC=0x304

# What perf_event_open() of Linux 6.1 (Debian's, with its paranoid level 3)
# checks, in order, for an uncore event:
#  1. paranoid > 2 and no CAP_SYS_ADMIN: EACCES (Debian's perf_paranoid_any).
#  2. exclude_kernel clear and paranoid > 1 without CAP_PERFMON (or
#     CAP_SYS_ADMIN): EACCES (perf_allow_kernel).
#  3. perf_event_alloc(): the driver's event_init refuses a per-task event,
#     and PERF_PMU_CAP_NO_EXCLUDE an exclude bit: EINVAL.
#  4. find_get_context(): a CPU event with paranoid > 0 without CAP_PERFMON
#     (or CAP_SYS_ADMIN): EACCES (perf_allow_cpu).
# Counting and sampling are alike: nothing checks sampling on its own.
#   paranoid caps      count  sample task   exclude_kernel
TABLE="
3 none      EACCES EACCES EACCES EACCES
3 perfmon   EACCES EACCES EACCES EACCES
3 sys_admin ok     ok     EINVAL EINVAL
2 none      EACCES EACCES EACCES EINVAL
2 perfmon   ok     ok     EINVAL EINVAL
2 sys_admin ok     ok     EINVAL EINVAL
1 none      EACCES EACCES EINVAL EINVAL
1 perfmon   ok     ok     EINVAL EINVAL
1 sys_admin ok     ok     EINVAL EINVAL
0 none      ok     ok     EINVAL EINVAL
0 perfmon   ok     ok     EINVAL EINVAL
0 sys_admin ok     ok     EINVAL EINVAL
-1 none     ok     ok     EINVAL EINVAL
-1 perfmon  ok     ok     EINVAL EINVAL
-1 sys_admin ok    ok     EINVAL EINVAL"

privs() { /tests/bin/privs "$U" "$@" 2>&1; }

# Without breadth (the debug guest), one row of each kind: refused before
# the driver sees the event, refused after its event_init, opened with and
# without a capability.
echo "$TABLE" | while read -r p caps count sample task excl; do
	[ -n "$p" ] || continue
	if ! breadth; then
		case "$p $caps" in
		"3 perfmon" | "1 none" | "2 perfmon" | "0 none") ;;
		*) continue ;;
		esac
	fi
	echo "$p" >$PAR
	is "$(privs "$caps" open uncore_cbox_0 $CBO "$CPU0" -1)" "$count" \
		"paranoid $p, uid $U with $caps: CPU-wide counting event: $count"
	is "$(privs "$caps" open uncore_imc_0 $IMC "$CPU0" -1 period=1000)" "$sample" \
		"paranoid $p, uid $U with $caps: CPU-wide sampling event: $sample"
	is "$(privs "$caps" open uncore_cbox_0 $CBO -1 0)" "$task" \
		"paranoid $p, uid $U with $caps: per-task event: $task"
	is "$(privs "$caps" open uncore_cbox_0 $CBO "$CPU0" -1 exclude_kernel)" "$excl" \
		"paranoid $p, uid $U with $caps: exclude_kernel: $excl"
done
# Refused in find_get_context(), after event_init: undone by destroy.
is "$(grep -vc '^#' $DBG/uncore_pmu/opens)" 0 "refused opens leave no event on its way to a CPU"

# held PARANOID CAPS PMU CONFIG WANT INJECTION...: uid $U opens CONFIG on
# PMU (sampling at period 1000 if WANT has samples) and holds it while root
# makes each injection and waits for the package to settle; then what it
# reads and finds in its ring buffer must be WANT.
held() {
	_p=$1 _caps=$2 _pmu=$3 _cfg=$4 _want=$5
	shift 5
	_per=""
	case $_want in *samples*) _per=period=1000 ;; esac
	echo "$_p" >$PAR
	rm -f /tmp/priv.go /tmp/priv.out
	# shellcheck disable=SC2086 # _per is one word or none
	/tests/bin/privs "$U" "$_caps" open "$_pmu" "$_cfg" "$CPU0" -1 $_per wait=/tmp/priv.go \
		>/tmp/priv.out 2>&1 &
	_pid=$!
	if until_true 'grep -q "^open" /tmp/priv.out'; then
		for _l; do sim_inject "$_l" && sim_settle 0; done
	fi
	touch /tmp/priv.go
	wait $_pid
	is "$(grep -v '^open' /tmp/priv.out | tr '\n' ' ')" "$_want " \
		"paranoid $_p, uid $U with $_caps: $_pmu reads $_want"
}
c="pkg=0 box=cbox idx=0 event=0x35 umask=0x08"
m="pkg=0 box=imc idx=0 event=0x04 umask=0x01"
held 2 perfmon uncore_cbox_0 $CBO "count 12345" "$c count=12345"
held 2 perfmon uncore_imc_0 $IMC "count 6000 samples 6 lost 0" \
	"$m count=3500" "$m count=1" "$m count=2499"
held 0 none uncore_cbox_0 $CBO "count 777" "$c count=700" "$c count=77"
echo "$par0" >$PAR
is "$(cat $PAR)" "$par0" "perf_event_paranoid restored to $par0"

# The debugfs files: root's, mode 0600 or less, and closed to uid $U with
# or without CAP_PERFMON even where the directory lets it in (debugfs' root
# is 0700; opened up here so that the files' own modes are what is tested).
DIRS="$DBG/uncore_pmu $DBG/uncore_sim"
# shellcheck disable=SC2086 # two directories
files=$(find $DIRS -type f | sort)
n=$(echo "$files" | grep -c .)
known=$(echo "$files" | grep -c '/uncore_sim/inject$\|/uncore_pmu/access$')
is "$known" 2 "$n debugfs files found, uncore_sim/inject and uncore_pmu/access among them"
# shellcheck disable=SC2086 # two directories
is "$(find $DIRS -type f \( ! -user 0 -o -perm /077 \) | tr '\n' ' ')" "" \
	"every debugfs file is root's, with no group or other permission"
# Each file as uid $U: the VFS's checks, no driver code; the stock guests
# run them, the debug guest (no breadth) only the driver's paths above.
if breadth; then
	chmod 0755 $DBG
	# The way in is open: uid $U reaches every directory (opening one
	# for writing fails as a directory, not for want of permission).
	# shellcheck disable=SC2086 # two directories
	dirs=$(find $DIRS -type d)
	for d in $dirs; do
		is "$(privs none access "$d")" "read:EISDIR write:EISDIR" "${d#"$DBG"/}/ reached by uid $U"
	done
	for f in $files; do
		is "$(privs none access "$f") $(privs perfmon access "$f")" \
			"read:EACCES write:EACCES read:EACCES write:EACCES" "${f#"$DBG"/}: no read or write for uid $U"
	done
	chmod "$dbgmode" $DBG
fi

# Module parameters: sysfs lets everyone read them (their values are no
# secret: the driver's limits, the simulated part); only root writes.
PARAMS="/sys/module/uncore_pmu/parameters /sys/module/uncore_sim/parameters"
# shellcheck disable=SC2086 # two directories
params=$(find $PARAMS -type f | sort)
# shellcheck disable=SC2086 # two directories
is "$(find $PARAMS -type f -perm /022 | tr '\n' ' ')" "" \
	"no module parameter is writable by group or others"
nw=0
for f in $params; do
	[ -n "$(find "$f" -perm -200)" ] || continue
	nw=$((nw + 1))
	breadth || continue
	is "$(privs none access "$f" | sed 's/.* //') $(privs perfmon access "$f" | sed 's/.* //')" \
		"write:EACCES write:EACCES" "${f#/sys/module/}: no write for uid $U"
done
ok "[ $nw -ge 4 ]" "$nw writable module parameters found"

unload_modules
ok $? "modules unload"
