#!/bin/sh
# timeout: 300
# The Xeon 7500 (Nehalem-EX) PMUs under mainline's names, their format
# fields (mainline's names and bits), one reading CPU per package, counter
# widths, and the event table: every alias it records is listed, mainline's
# nine among them with mainline's encodings, and each one opens.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo

is "$(cat $SIM/part)" nhmex "the simulator models the Xeon 7500"
for u in $NH_PMUS; do
	ok "[ -d $PMUS/uncore_$u ]" "uncore_$u registered"
done
n=0; for d in "$PMUS"/uncore_*; do [ -e "$d" ] && n=$((n + 1)); done
is $n 18 "18 uncore PMUs, no other"

cpus=""
for p in $PKGS; do cpus="$cpus${cpus:+,}$(first_cpu "$p")"; done
for u in $NH_PMUS; do
	is "$(cat "$PMUS/uncore_$u/cpumask")" "$cpus" "uncore_$u cpumask: one CPU per package ($cpus)"
	is "$(cat "$PMUS/uncore_$u/counter_width")" 48 "uncore_$u counters are 48 bits wide"
done
is "$(cat $PMUS/uncore_cbox_0/num_counters)" 6 "a C-box has 6 counters"
is "$(cat $PMUS/uncore_bbox_0/num_counters)" 4 "a B-box has 4 counters"
is "$(cat $PMUS/uncore_rbox_1/num_counters)" 8 "an R-box half has 8 counters"
is "$(cat $PMUS/uncore_wbox/fixed_counter_width)" 48 "the W-box fixed counter is 48 bits wide"

# Format: mainline's uncore_nhmex.c field names and bits, all of them.
fmt() { # PMU "name=spec ..."
	_got=$(for f in "$PMUS/uncore_$1"/format/*; do printf '%s=%s ' "${f##*/}" "$(cat "$f")"; done)
	_want=$(echo "$2" | tr ' ' '\n' | sort | tr '\n' ' ')
	is "$_got" "$_want" "uncore_$1 format"
}
common="edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-31 umask=config:8-15"
fmt ubox "edge=config:18 event=config:0-7"
fmt cbox_5 "$common"
fmt wbox "$common"
fmt sbox_1 "$common match=config1:0-63 mask=config2:0-63"
fmt bbox_0 "counter=config:6-7 event=config:1-5 match=config1:0-63 mask=config2:0-63"
fmt rbox_0 "event=config:1-5 iperf_cfg=config1:0-31 qlx_cfg=config1:0-15 xbr_mask=config2:0-63 xbr_match=config1:0-63 xbr_mm_cfg=config:32-63"
fmt mbox_1 "count_mode=config:2-3 dsp=config1:0-31 filter_cfg_en=config2:63 filter_mask=config2:34-61 filter_match=config2:0-33 flag_mode=config:7 fvc=config1:0-31 inc_sel=config:9-13 iss=config1:0-31 map=config1:0-31 pgt=config1:0-31 pld=config1:32-63 set_flag_sel=config:19-21 storage_mode=config:4-5 thr=config1:0-31 wrap_mode=config:6"

# Mainline's nine aliases, with mainline's encodings.
is "$(cat $PMUS/uncore_wbox/events/clockticks)" "event=0xff,umask=0" "wbox clockticks"
is "$(cat $PMUS/uncore_mbox_0/events/bbox_cmds_read)" "inc_sel=0xd,fvc=0x2800" "mbox bbox_cmds_read"
is "$(cat $PMUS/uncore_mbox_1/events/bbox_cmds_write)" "inc_sel=0xd,fvc=0x2820" "mbox bbox_cmds_write"
for a in "qpi0_flit_send event=0x0,iperf_cfg=0x80000000" "qpi1_filt_send event=0x6,iperf_cfg=0x80000000" \
	"qpi0_idle_filt event=0x0,iperf_cfg=0x40000000" "qpi1_idle_filt event=0x6,iperf_cfg=0x40000000" \
	"qpi0_date_response event=0x0,iperf_cfg=0xc4" "qpi1_date_response event=0x6,iperf_cfg=0xc4"; do
	is "$(cat "$PMUS/uncore_rbox_0/events/${a%% *}")" "${a#* }" "rbox ${a%% *}"
done

# The table's alias counts (MODULE_INFO nhmex_event_counts) are what
# sysfs lists, and each PMU of a type lists the same aliases.
COUNTS=$(modinfo -F nhmex_event_counts "$MODDIR/uncore_pmu.ko" 2>/dev/null)
ok "[ -n '$COUNTS' ]" "uncore_pmu.ko records the table's alias counts: $COUNTS"
aliases() { for f in "$PMUS/$1"/events/*; do case $f in *.scale|*.unit) ;; *) [ -e "$f" ] && echo "${f##*/}" ;; esac; done; }
for c in $COUNTS; do
	t=${c%=*}
	pmu=uncore_$t
	[ -d "$PMUS/$pmu" ] || pmu=uncore_${t}_0
	is "$(aliases "$pmu" | wc -l)" "${c#*=}" "$pmu lists the table's ${c#*=} aliases"
done
for t in cbox_7 bbox_1 sbox_1 mbox_1 rbox_1; do
	is "$(aliases "uncore_$t" | md5sum)" "$(aliases "uncore_${t%_*}_0" | md5sum)" "uncore_$t lists the aliases of uncore_${t%_*}_0"
done

# Every alias opens: perf parses it and the driver accepts it (one batch
# per PMU; an alias refused shows as <not supported>).
for u in $NH_PMUS; do
	case $u in cbox_[1-7] | bbox_1 | sbox_1 | mbox_1) continue ;; esac
	evs=$(aliases "uncore_$u" | sed "s|.*|uncore_$u/&/|" | paste -s -d,)
	perf stat -a -x, -o /tmp/al.csv -e "$evs" -- true 2>/tmp/al.err
	bad=$(awk -F, '$1 == "<not supported>" { print $3 }' /tmp/al.csv | head -n 5 | tr '\n' ' ')
	n=$(grep -c "uncore_$u/" /tmp/al.csv)
	is "$n:$bad" "$(aliases "uncore_$u" | wc -l):" "uncore_$u: every alias opens"
done

unload_modules
