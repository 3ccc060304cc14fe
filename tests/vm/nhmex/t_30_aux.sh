#!/bin/sh
# timeout: 600
# Control fields and auxiliary registers, exact against the injections:
# C-box threshold, invert and edge; B-box MATCH/MASK; the S-box match and
# its MM_CFG protocol (no write the part would #GP on, the M-box's too); S-box queue
# occupancy and reset_occ_cnt; R-box IPERF, QLX and XBR sub-registers,
# each pair re-targeted when one half holds another value; M-box sub-controls, FVC field re-targeting and address match
# ([EXT] registers, see Documentation/uncore_pmu.rst); a third value for a
# pair of registers waits (multiplexes) rather than clobbering the two
# that hold.
# shellcheck source=../lib/lib.sh
. /tests/lib/lib.sh
# shellcheck source=../lib/uncore_lib.sh
. /tests/lib/uncore_lib.sh
# shellcheck source=nhmex_lib.sh
. /tests/nhmex/nhmex_lib.sh

load_modules || exit 1
nh_topo
out=/tmp/stat.csv
C0=$FIRST_0

# run EVENTS INJECTIONS...: perf stat on package 0's reading CPU while the
# injections (lines for package 0) are made; the state is kept in /tmp/during.
run() {
	_ev=$1 _c=""
	shift
	for l in "$@"; do _c="$_c sim_inject 'pkg=0 $l' &&"; done
	pstat "$out" -C "$C0" -e "$_ev" -- sh -c ". /tests/lib/lib.sh; $_c cat $SIM/state > /tmp/during"
}
v() { val_total "$out" "$1"; }

# C-box (000:461-465): threshold counts cycles with increment >= thresh,
# invert those below it, edge the 0->1 changes of that condition.
run "uncore_cbox_1/event=0x1a,umask=0x1,thresh=3,name=th/,uncore_cbox_1/event=0x1a,umask=0x1,thresh=6,inv=1,name=iv/,uncore_cbox_1/event=0x1a,umask=0x1,thresh=3,edge=1,name=ed/,uncore_cbox_1/event=0x1a,umask=0x1,name=raw/" \
	"box=cbox idx=1 event=0x1a umask=0x1 count=10 inc=5" \
	"box=cbox idx=1 event=0x1a umask=0x1 count=4 inc=1" \
	"box=cbox idx=1 event=0x1a umask=0x1 count=7 inc=3"
is "$(v th)" 17 "cbox thresh=3: the 10 + 7 cycles with an increment of at least 3"
is "$(v iv)" 21 "cbox thresh=6,inv: all 21 cycles have an increment below 6"
is "$(v ed)" 2 "cbox thresh=3,edge: two rising edges"
is "$(v raw)" $((50 + 4 + 21)) "cbox no threshold: the increments, 75"

# B-box counter 1 MSG_IN_MATCH on message class bits 47:44 (Table 2-22):
# a SNP (0011) packet matches, an NCS (0100) one does not.
run "uncore_bbox_0/event=0x1,counter=1,match=0x300000000000,mask=0xf00000000000,name=bm/" \
	"box=bbox idx=0 ctr=1 event=0x1 pkt=0x300000000000 count=5" \
	"box=bbox idx=0 ctr=1 event=0x1 pkt=0x400000000000 count=7"
is "$(v bm)" 5 "bbox MSG_IN_MATCH: the 5 SNP messages, not the 7 NCS ones"
is "$(nh_field 0 bbox0 - match /tmp/during):$(nh_field 0 bbox0 - mask /tmp/during)" \
	"0x0000300000000000:0x0000f00000000000" "bbox0 MATCH and MASK hold the event's values while it counts"

# S-box TO_R_PROG_EV: address PA[43:6] in MATCH bits 38:1, MASK bits set
# are don't-care (Table 2-35). Written with MM_CFG[63] clear (000:1903).
run "uncore_sbox_1/event=0x0,match=0x2468,mask=0x1e,name=sm/" \
	"box=sbox idx=1 event=0x0 pkt=0x2460 count=11" \
	"box=sbox idx=1 event=0x0 pkt=0x247e count=13" \
	"box=sbox idx=1 event=0x0 pkt=0x2480 count=17"
is "$(v sm)" 24 "sbox match: 0x2460 and 0x247e match 0x2468 under mask 0x1e, 0x2480 does not"
is "$(nh_field 0 sbox1 - mm_cfg /tmp/during)" 0x8000000000000000 "sbox1 MM_CFG enabled while counting"
run "uncore_sbox_1/event=0x0,match=0x1000,mask=0x0,name=sm2/" "box=sbox idx=1 event=0x0 pkt=0x1000 count=3"
is "$(v sm2)" 3 "sbox match reprogrammed for a second user"
is "$(nh_stat 0 gp_mm)" 0 "no MATCH/MASK write while MM_CFG[63] was set (no #GP)"

# S-box queue occupancy (000:1938-1944): each counter has a 7-bit tally
# that the queue moves and that adds its value every cycle. The driver
# sets reset_occ_cnt in the enabling write (000:1741-1743); the first
# session leaves 3 entries in the tally, and a second one on the same
# counter must not count them.
run "uncore_sbox_0/to_r_b_hom_msgq_occupancy.rbox,name=oa/" \
	"box=sbox event=0x07 umask=0x1 enq=5 count=10" \
	"box=sbox event=0x07 umask=0x1 deq=2 count=100"
is "$(v oa)" $((5 * 10 + 3 * 100)) "sbox HOM queue occupancy: 5 entries for 10 cycles, 3 for 100"
is "$(grep -c '^pkg0 sbox0 ctr.*counting=1 occ_reset=1 ' /tmp/during)" 1 \
	"sbox occupancy: the counter was enabled with reset_occ_cnt"
run "uncore_sbox_0/to_r_b_hom_msgq_occupancy.rbox,name=ob/,uncore_sbox_0/event=0x07,umask=0x1,thresh=4,name=ot/" \
	"box=sbox event=0x07 umask=0x1 enq=1 count=10" \
	"box=sbox event=0x07 umask=0x1 enq=4 count=7"
is "$(v ob):$(v ot)" $((1 * 10 + 5 * 7)):7 \
	"sbox occupancy again: the tallies start from 0 (no stale 3); thresh=4 counts the 7 cycles with 5"

# R-box port 1 (rbox_0, ev_sel 6 = IPERF0): two values, the second event
# takes IPERF1 (ev_sel 7); its count is its own.
run "uncore_rbox_0/event=0x6,iperf_cfg=0x80000000,name=ia/,uncore_rbox_0/event=0x6,iperf_cfg=0x40000000,name=ib/" \
	"box=rbox port=1 iperf=0x80000000 count=19" \
	"box=rbox port=1 iperf=0x40000000 count=23"
is "$(v ia):$(v ib)" 19:23 "rbox port 1: flit-sent and idle-flit events on IPERF0 and IPERF1, each exact"
is "$(nh_field 0 rport1 - iperf0 /tmp/during):$(nh_field 0 rport1 - iperf1 /tmp/during)" \
	0x80000000:0x40000000 "rbox port 1: the second value re-targeted to IPERF_CFG1"
# QLX fields of port 5 (rbox_1, ev_sel 8 + 0/1): the same re-targeting.
run "uncore_rbox_1/event=0x8,qlx_cfg=0x5,name=qa/,uncore_rbox_1/event=0x8,qlx_cfg=0x3,name=qb/" \
	"box=rbox port=5 qlx=0x5 count=29" "box=rbox port=5 qlx=0x3 count=31"
is "$(v qa):$(v qb)" 29:31 "rbox port 5: two QLX values in the register's two fields, each exact"
is "$(nh_field 0 rport5 - qlx /tmp/during)" 0x00000305 "rbox port 5: QLX_CFG holds 0x05 in field 0, 0x03 in field 1"
# XBR match/mask sets of port 6 (rbox_1, ev_sel 16 + 4/5): opcode match.
run "uncore_rbox_1/event=0x10,xbr_mm_cfg=0x210000,xbr_match=0x20,xbr_mask=0x1e0,name=xa/,uncore_rbox_1/event=0x10,xbr_mm_cfg=0x210000,xbr_match=0x40,xbr_mask=0x1e0,name=xb/" \
	"box=rbox port=6 xbr=0x20 count=37" "box=rbox port=6 xbr=0x40 count=41" "box=rbox port=6 xbr=0x60 count=43"
is "$(v xa):$(v xb)" 37:41 "rbox port 6: two opcode matches in XBR sets 1 and 2, each exact"

# A third IPERF value on one port has no register: it waits while the
# two others hold theirs (perf multiplexes, nothing is clobbered).
pstat "$out" -C "$C0" -e "uncore_rbox_0/event=0x0,iperf_cfg=0x1,name=i1/,uncore_rbox_0/event=0x0,iperf_cfg=0x2,name=i2/,uncore_rbox_0/event=0x0,iperf_cfg=0x4,name=i3/" -- sleep 0.3
ok "awk -F, '\$3 ~ /^i[123]\$/ && \$5 < 100 { n++ } END { exit !(n >= 1) }' $out" \
	"rbox: three IPERF values for one port's two registers are multiplexed"

# M-box [EXT]: DSP for inc_sel 0, and FVC fields for inc_sel 0xd-0x10: a
# second value takes the next free field, its inc_sel following.
run "uncore_mbox_0/inc_sel=0x0,dsp=0x400,name=md/,uncore_mbox_0/inc_sel=0xd,fvc=0x2800,name=fa/,uncore_mbox_0/inc_sel=0xd,fvc=0x3000,name=fb/" \
	"box=mbox idx=0 sel=0x0 dsp=0x400 count=47" "box=mbox idx=0 sel=0x0 dsp=0x200 count=53" \
	"box=mbox idx=0 sel=0xd fvc=5 count=59" "box=mbox idx=0 sel=0xe fvc=6 count=61"
is "$(v md)" 47 "mbox DSP event: only occurrences with the DSP value it set"
is "$(v fa):$(v fb)" 59:61 "mbox FVC: field 0 for the first value, field 1 (inc_sel 0xe) for the second"
is "$(nh_field 0 mbox0 - zdp /tmp/during)" "$(printf '0x%016x' $(( (5 << 11) | (6 << 14) )))" "mbox ZDP_CTL_FVC holds both fields"
# PLD event with address match (config2: filter_cfg_en, match, mask); pld
# is config1:32-63, alone as beside ISS (fidelity X1).
run "uncore_mbox_0/inc_sel=0xb,pld=0x1,filter_cfg_en=1,filter_match=0x1234,filter_mask=0xf,name=ma/" \
	"box=mbox idx=0 sel=0xb pld=0x1 addr=0x1230 count=67" "box=mbox idx=0 sel=0xb pld=0x1 addr=0x1244 count=71"
is "$(v ma)" 67 "mbox PLD with address match: 0x1230 matches 0x1234 under mask 0xf, 0x1244 does not"
# The match changing hands: a field given back keeps its value, so the
# next match is written while MM_CFG[63] is still set. MATCH and MASK go
# in with MM_CFG[63] clear, the S-box's protocol (000:1900-1908), which
# the simulator holds the M-box to as well [INF] (fidelity X2).
for m in 0x5678 0x9abc; do
	run "uncore_mbox_0/inc_sel=0xa,iss=0x1,pld=0x2,filter_cfg_en=1,filter_match=$m,filter_mask=0x0,name=mb/" \
		"box=mbox idx=0 sel=0xa iss=0x1 pld=0x2 addr=$m count=73" \
		"box=mbox idx=0 sel=0xa iss=0x1 pld=0x2 addr=0x1230 count=79"
	is "$(v mb)" 73 "mbox ISS+PLD with address match $m: that address only"
done
is "$(nh_stat 0 gp_mm)" 0 "no M-box MATCH/MASK write while its MM_CFG[63] was set (no #GP)"

is "$(sim_leftovers)" 0 "every event closed: no filter or match register left set, no counter enabled"
is "$(nh_bad_writes)" 0 "no reserved bit written, no faulting access, no #GP'd match write"
unload_modules
