/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: the interface between the generic core (core/: the perf
 * callbacks and the rest, internal.h lists them; register access in
 * access.c, pure logic in logic.c) and the families that describe the
 * parts (bdx/, nhmex/, p4mp/, k8/; the Intel ones share intel/).
 *
 * Vocabulary: a *type* is a kind of box (CBo, PCU, ...); a *pmu* is one
 * struct pmu per box index of a type (uncore_cbox_3); a *box* is that
 * index's instance in one package. Packages are Linux logical package ids.
 */
#ifndef _UNCORE_PMU_UNCORE_H
#define _UNCORE_PMU_UNCORE_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

/*
 * What to do when intel_uncore holds the PMU names or the PCI devices: the
 * modprobe.d file shipped for it, inactive until copied (uncore_pmu.rst,
 * "Installing"). Kept in one place for both refusals.
 */
#define UNCORE_INTEL_UNCORE_FIX \
	"'rmmod intel_uncore' first; to keep it from loading at boot, copy uncore-pmu-replaces-intel-uncore.conf (in /usr/share/uncore-pmu/modprobe.d/ from the package, /usr/local/share/uncore-pmu/modprobe.d/ from make install) to /etc/modprobe.d/ and run update-initramfs -u"

#define UNCORE_MAX_COUNTERS	8
/* Index of a box's fixed counter in uncore_box.events[] and assignment. */
#define UNCORE_FIXED_IDX	UNCORE_MAX_COUNTERS
#define UNCORE_MAX_EVENTS	(UNCORE_MAX_COUNTERS + 1)
/* attr.config selecting a type's fixed counter, as mainline's uncore does. */
#define UNCORE_FIXED_EVENT	0xffULL
/*
 * Auxiliary registers (filters, match/mask, sub-controls), arbitrated by
 * the core: a box type declares up to UNCORE_AUX_SLOTS slots of up to
 * UNCORE_AUX_REGS registers and UNCORE_AUX_FIELDS shared fields each; an
 * event makes up to UNCORE_AUX_REQS requests of up to UNCORE_AUX_ALTS
 * alternatives each (Documentation/architecture.rst).
 */
#define UNCORE_AUX_SLOTS	12	/* NHM-EX R-box half: 4 ports x 3 + QLX */
#define UNCORE_AUX_REGS		4
#define UNCORE_AUX_FIELDS	6	/* NHM-EX ZDP_CTL_FVC: shared + 4 events */
#define UNCORE_AUX_REQS		4
#define UNCORE_AUX_ALTS		4	/* NHM-EX FVC: any of 4 fields */

struct uncore_box;
struct uncore_pmu;
struct uncore_type;

/**
 * struct uncore_ctl_layout - a box type's counter control register
 * @en: the bit that makes a general counter count
 * @fixed_en: the bit that makes the fixed counter count
 * @ov_en: the bit that sends a counter's overflow to the PMI; 0 if the
 *	type cannot interrupt
 * @thresh: the threshold field, 0 if none: an event with a threshold
 *	counts at most once per clock (the cycles its condition held)
 * @need_thresh: bits refused without a threshold (BDX 1.4: invert and
 *	edge act on the output of the threshold comparison)
 * @fixed_no_ov: the fixed counter has no ov_en (NHM-EX W-box): its
 *	sampling events are the box's timer's
 * @readback: bits of a general counter's control that read back as last
 *	written; the poll timer compares them to catch another agent's writes
 *	(uncore_check_foreign()). 0: not checked
 *
 * The rest of the control value is attr.config as the type's format lays
 * it out.
 */
struct uncore_ctl_layout {
	u64 en;
	u64 fixed_en;
	u64 ov_en;
	u64 thresh;
	u64 need_thresh;
	bool fixed_no_ov;
	u64 readback;
};

/**
 * struct uncore_aux_slot - auxiliary registers a box's events share
 * @nregs: registers in the slot, written together by &uncore_type.write_aux
 * @nfields: fields in the slot
 * @field: each field's bits in each register of the slot
 *
 * Each field is reference-counted on its own: events share a field only
 * when they need the same value in it.
 */
struct uncore_aux_slot {
	u8 nregs;
	u8 nfields;
	u64 field[UNCORE_AUX_FIELDS][UNCORE_AUX_REGS];
};

/**
 * struct uncore_aux_alt - one way to satisfy an auxiliary request
 * @slot: the slot it uses
 * @fields: bit i set: it needs field i of @slot
 * @val: the values it needs, each in its register position
 * @ctl: control bits it adds to the event's control value if chosen
 */
struct uncore_aux_alt {
	u8 slot;
	u8 fields;
	u64 val[UNCORE_AUX_REGS];
	u64 ctl;
};

/**
 * struct uncore_aux_req - one thing an event needs of its box's slots
 * @nalt: alternatives, in order of preference
 * @alt: the alternatives (interchangeable register halves, say)
 */
struct uncore_aux_req {
	u8 nalt;
	struct uncore_aux_alt alt[UNCORE_AUX_ALTS];
};

/**
 * struct uncore_aux_need - what an event needs beyond its counter
 * @ctl: control bits it needs that attr.config does not have (a CBo
 *	filter_tid implies tid_en), whatever the alternatives chosen
 * @drop: bits of attr.config that are not control bits: a counter
 *	selector (NHM-EX B-box), an auxiliary register's value (R-box
 *	xbr_mm_cfg), or a selector the chosen alternative supplies
 * @nreq: requests in @req
 * @req: its requests; the event gets all of them or none
 */
struct uncore_aux_need {
	u64 ctl;
	u64 drop;
	u8 nreq;
	struct uncore_aux_req req[UNCORE_AUX_REQS];
};

/**
 * struct uncore_aux_state - what a box's slots hold
 * @ref: users of each field of each slot
 * @val: each slot's register values, as last written
 */
struct uncore_aux_state {
	int ref[UNCORE_AUX_SLOTS][UNCORE_AUX_FIELDS];
	u64 val[UNCORE_AUX_SLOTS][UNCORE_AUX_REGS];
};

/**
 * struct uncore_aux - a box's auxiliary registers and their users
 * @lock: protects @st; taken from perf callbacks (IRQs off)
 * @st: the slots' users and values
 *
 * A second event that needs another value in a used field is refused a
 * place, and perf multiplexes it instead of letting it clobber the first
 * one's.
 */
struct uncore_aux {
	raw_spinlock_t lock;
	struct uncore_aux_state st;
};

/**
 * struct uncore_event - the driver's own state of one perf event
 * @box: the box it counts on, referenced until the event is freed
 * @allowed: bit i set: it may count on counter i (the fixed counter is
 *	bit UNCORE_FIXED_IDX)
 * @aux: what it needs of the box's auxiliary registers
 * @aux_choice: the alternative it holds of each request, while it holds
 *	them (added, or carried over a move)
 * @aux_ctl: the control bits its held alternatives added to hw.config
 * @max_rate: the most it can count per second
 * @thr_window: start of its current throttle window (one tick long)
 * @thr_samples: samples it took in that window
 * @freq_last: frequency mode: when it took its last sample (or started)
 * @freq_slot: frequency mode: when its next sample is due, 0 if not yet set
 * @freq_count: frequency mode: what it counted since its last sample (or
 *	its first start), the period of its next sample
 * @event: the event this is of
 * @lost_work: takes the event off the hardware for good once another agent
 *	reprogrammed its counter (uncore_check_foreign()), or its box left
 * @park_irq: queues @lost_work when add() refuses the event for good
 * @lost_idx: the counter another agent took from it, -1 if none
 *
 * Hung off event->pmu_private from event_init to destroy. @allowed and
 * @aux are set at event_init; the other fields change only on the box's
 * reading CPU with IRQs off (perf callbacks, the poll timer, the PMI
 * handler's pass).
 */
struct uncore_event {
	struct uncore_box *box;
	u32 allowed;
	struct uncore_aux_need aux;
	u8 aux_choice[UNCORE_AUX_REQS];
	u64 aux_ctl;
	u64 max_rate;
	u64 thr_window;
	u32 thr_samples;
	u64 freq_last;
	u64 freq_slot;
	local64_t freq_count;
	struct perf_event *event;
	struct work_struct lost_work;
	struct irq_work park_irq;
	int lost_idx;
};

/**
 * struct uncore_access_stats - register traffic of one box
 * @msr_rd: MSR reads
 * @msr_wr: MSR writes
 * @pci_rd: PCI config dword reads
 * @pci_wr: PCI config dword writes
 * @errors: accesses that faulted (#GP) or failed
 * @nmi_msr_rd: MSR reads in NMI context (the PMI handler's status reads)
 * @nmi_errors: those that faulted
 *
 * Only the box's reading CPU updates the first five (perf callbacks and
 * the poll timer run there), so plain increments suffice; debugfs reads
 * them racily, which is fine for statistics. The NMI counts are atomic:
 * the NMI may interrupt a plain increment on its CPU, both threads of the
 * reading CPU's core take it, and the reading CPU's own code tells a
 * failed write by @errors moving (review pmi-protocol N15).
 */
struct uncore_access_stats {
	u64 msr_rd;
	u64 msr_wr;
	u64 pci_rd;
	u64 pci_wr;
	u64 errors;
	atomic64_t nmi_msr_rd;
	atomic64_t nmi_errors;
};

/**
 * struct uncore_box - one box of one package
 * @pmu: the pmu this box belongs to
 * @pkg: logical package id
 * @cpu: CPU that reads this box, or -1 while the package has no CPU online
 * @initialized: init_box() ran since the package last came online
 * @n_events: events currently added
 * @events: added events, by slot; @assign holds their counters
 * @assign: counter index of each added event (UNCORE_FIXED_IDX: fixed)
 * @used_mask: counters in use
 * @hrtimer: poll timer, pinned to @cpu, running while events are added
 * @poll_ns: current poll period
 * @wrap_ns: the longest the timer may wait for its counters not to wrap
 *	twice unseen (poll_max_ms included), however the CPU's time budget
 *	stands
 * @foreign_checked: local_clock() time the timer last read the controls
 *	back for another agent's writes, 0 if it never did
 * @aux: auxiliary-register arbitration
 * @aux_events: open events of the box that need auxiliary registers;
 *	under uncore_box_mutex. The last one's destroy clears the fields
 *	their events left set (uncore_scrub_aux())
 * @stats: register access counts
 * @pdev: PCI function of a PCI box (NULL for MSR boxes)
 * @aux_pdev: a second function some PCI boxes need (QPI match/mask)
 * @msr_base: MSR offset of this box from its type's registers
 * @ref: held by the pmu while the box is present and by each event on it
 * @pmi_mask: global status bits this box's overflows are reported in; 0 if
 *	the box cannot raise a PMI
 * @n_pmi: sampling events added that overflow into a PMI
 * @pmi_node: entry in its package's list of boxes with such events
 * @n_timer: sampling events added that the box's timer samples (the box
 *	cannot interrupt)
 * @n_throttled: events of the box throttled by the driver, waiting for
 *	the timer to restart them
 * @samples: samples handed to perf
 * @lost: samples perf could not take (recursion)
 * @throttles: times an event of the box was throttled by the driver
 * @over_budget: samples not taken because the reading CPU had spent its
 *	time budget for sample passes (uncore_over_budget())
 * @dead: the box's device went away: nothing touches the hardware any more,
 *	its events keep the counts they had. Set on @cpu with IRQs off, so
 *	the perf callbacks, which run there with IRQs off too, see it settled.
 * @txn_flags: the perf transaction in progress (PERF_PMU_TXN_*), 0 if none
 * @txn_cpu: the CPU that opened it, -1 if none
 * @batch_cpu: between perf's pmu_disable and pmu_enable, the CPU that
 *	called that pmu_disable; -1 outside
 * @held: the driver froze the box (BOX_CTL) to start or stop a group at
 *	once; pmu_enable, or the end of the commit, lets it run
 * @carried: counters left counting, each with its auxiliary fields held, for
 *	events a move took off the old reading CPU and has not added on the
 *	new one yet (uncore_carry()); owned by @cpu, the new one
 * @carried_ev: the event of each counter in @carried
 * @carried_at: when each counter in @carried was last read, at the old
 *	CPU's del (ktime_get_ns())
 * @foreign: counters another agent took from an event still open
 *	(uncore_check_foreign()): no other event is given them meanwhile.
 *	Atomic bit operations: set on @cpu, cleared where the event is freed
 * @forwarded: events of a forwarding type (&struct uncore_type.forward)
 *	handed on since @cpu became the reading CPU: they stop if it goes
 * @faults: UNCORE_BOX_* bits. Atomic bit operations: accesses fail in any
 *	context, and a PCI box's may come from any CPU
 */
struct uncore_box {
	struct uncore_pmu *pmu;
	int pkg;
	int cpu;
	bool initialized;
	bool dead;
	int n_events;
	struct perf_event *events[UNCORE_MAX_EVENTS];
	int assign[UNCORE_MAX_EVENTS];
	unsigned long used_mask;
	struct hrtimer hrtimer;
	u64 poll_ns;
	u64 wrap_ns;
	u64 foreign_checked;
	struct uncore_aux aux;
	int aux_events;
	struct uncore_access_stats stats;
	struct pci_dev *pdev;
	struct pci_dev *aux_pdev;
	u32 msr_base;
	struct kref ref;
	u64 pmi_mask;
	int n_pmi;
	struct list_head pmi_node;
	int n_timer;
	int n_throttled;
	u64 samples;
	u64 lost;
	u64 throttles;
	u64 over_budget;
	unsigned int txn_flags;
	int txn_cpu;
	int batch_cpu;
	bool held;
	u32 carried;
	struct perf_event *carried_ev[UNCORE_MAX_EVENTS];
	u64 carried_at[UNCORE_MAX_EVENTS];
	unsigned long foreign;
	atomic_t forwarded;
	unsigned long faults;
};

/*
 * Bits of &struct uncore_box.faults: an access failed and no counter read
 * has worked since; its running events' controls are to be written again;
 * a fault was reported and its end is not yet; another agent's write was
 * reported; an access failed since the box's PMI sampling was last made
 * whole (uncore_pmi_resync()).
 */
enum {
	UNCORE_BOX_FAULT,
	UNCORE_BOX_REPROGRAM,
	UNCORE_BOX_REPORTED,
	UNCORE_BOX_FOREIGN,
	UNCORE_BOX_RESYNC,
};

/**
 * struct uncore_ops - how a box type is driven
 * @init_box: reset the box once per package online (on the box's CPU)
 * @enable_event: program and start the event's counter
 * @disable_event: stop the event's counter
 * @read_counter: raw value of the event's counter
 * @write_counter: load the event's (stopped or frozen) counter with a
 *	value; NULL if no event of the type samples through a PMI, the one
 *	user
 * @read_ctl: read a general counter's control register into *@val;
 *	0 or -EIO. NULL: the poll timer cannot check it (@readback)
 * @read_status: the box's overflow status bits, 0 if it has none or the
 *	read failed. NULL: the type reports no overflow status (it cannot
 *	raise a PMI)
 * @clear_status: acknowledge status bits @st (as @read_status returned)
 * @freeze: stop every counter of the box at once and change nothing else,
 *	so that a group starts and stops as one; false if the box cannot be
 *	frozen on its own (NULL: never)
 * @unfreeze: end the freeze of @freeze
 *
 * Only the ops read the register fields of &struct uncore_type: which
 * kind of address they are (an MSR, a config-space offset) is theirs to
 * know. The core calls every op on the box's reading CPU with IRQs off,
 * but @init_box (see &struct uncore_platform.pkg_init, and PCI probe).
 */
struct uncore_ops {
	void (*init_box)(struct uncore_box *box);
	void (*enable_event)(struct uncore_box *box, struct perf_event *event);
	void (*disable_event)(struct uncore_box *box, struct perf_event *event);
	u64 (*read_counter)(struct uncore_box *box, struct perf_event *event);
	void (*write_counter)(struct uncore_box *box, struct perf_event *event,
			      u64 val);
	int (*read_ctl)(struct uncore_box *box, struct perf_event *event,
			u64 *val);
	u32 (*read_status)(struct uncore_box *box);
	void (*clear_status)(struct uncore_box *box, u32 st);
	bool (*freeze)(struct uncore_box *box);
	void (*unfreeze)(struct uncore_box *box);
};

/**
 * struct uncore_constraint - counters an event may use
 * @code: event select value (attr.config & @cmask)
 * @cmask: bits of attr.config that @code is compared against
 * @counters: bit i set: counter i allowed
 * @max_inc: largest increment per clock, for the poll period
 */
struct uncore_constraint {
	u64 code;
	u64 cmask;
	u32 counters;
	u16 max_inc;
};

/**
 * struct uncore_event_desc - a named event under events/
 * @name: alias name
 * @config: its perf config string ("event=0x35,umask=0x3")
 * @scale: perf's <name>.scale (a decimal number as a string), or NULL
 * @unit: perf's <name>.unit ("MiB"), or NULL
 * @compat: one of mainline's aliases, a type's clockticks or one the
 *	event table marks %listed: listed with the module parameter
 *	all_aliases=N, the default, too
 * @avail: listed only where the platform's available() holds for this
 *	condition (NULL: always)
 */
struct uncore_event_desc {
	const char *name;
	const char *config;
	const char *scale;
	const char *unit;
	bool compat;
	const char *avail;
};

/**
 * struct uncore_avail - events that exist only under a condition
 * @code: their key (attr.config & @cmask)
 * @cmask: the bits of attr.config the key is made of
 * @avail: the condition, for the platform's available(); NULL ends a table
 *
 * Generated from the avail column of a family's event table
 * (gen_events.awk). The first entry whose key matches decides.
 */
struct uncore_avail {
	u64 code;
	u64 cmask;
	const char *avail;
};

/**
 * struct uncore_format_desc - a field under format/
 * @name: field name (mainline's, so perf JSON and tools keep working)
 * @spec: bits, e.g. "config:8-15" or "config1:52-60"
 */
struct uncore_format_desc {
	const char *name;
	const char *spec;
};

/**
 * struct uncore_type - a kind of box, as a platform describes it
 * @name: "cbox", "ubox", ... (pmu name is uncore_<name>[_<n>])
 * @num_boxes: box indices that can exist
 * @num_counters: general counters per box
 * @ctr_bits: width of the general counters
 * @poll_bits: if not 0, the width the poll timer reads the general
 *	counters often enough for, narrower than @ctr_bits: a counter whose
 *	width the sources disagree on, which @ops->read_counter widens
 * @fixed_ctr_bits: width of the fixed counter, 0 if none
 * @max_inc: largest per-clock increment of any event on this type
 * @clock_hz: upper bound of the clock the counters count in
 * @ctl: the layout of its counter control registers
 * @config_mask: attr.config bits the format allows
 * @config1_mask: attr.config1 bits the format allows
 * @config2_mask: attr.config2 bits the format allows
 * @pci: boxes are PCI functions, added and removed by the platform's PCI
 *	driver (the core registers the pmu with its first box and leaves the
 *	box alone when it may be going). The register fields below are read
 *	by the type's @ops alone, as addresses of the kind those ops use:
 *	MSRs (intel/msr_box.c), config-space offsets (intel/pci_box.c)
 * @box_ctl: MSR of box 0's BOX_CTL (0: none)
 * @box_ctl_init: value that resets the box's controls and counters
 * @box_ctl_freeze: BOX_CTL value that freezes the box's counters and
 *	changes nothing else (NHM-EX: 0, every ctr_en bit clear)
 * @box_ctl_run: BOX_CTL value that ends that freeze; @box_ctl_freeze and
 *	@box_ctl_run both 0: the box cannot be frozen on its own
 * @write_twice: counter controls must be written twice to take hold
 * @event_ctl: MSR of box 0's CTL0 (PCI: CTLn at @event_ctl + 4n)
 * @perf_ctr: MSR of box 0's CTR0 (PCI: CTRn at @perf_ctr + 8n)
 * @msr_ctl_stride: MSR distance between a box's counter controls, 0 for 1
 * @msr_ctr_stride: MSR distance between a box's counters, 0 for 1
 * @pci_ctrs: PCI boxes whose counters are not evenly spaced: their offsets
 * @fixed_ctl: MSR of the fixed counter's control (0: none)
 * @fixed_ctr: MSR of the fixed counter
 * @box_status: MSR of box 0's BOX_STATUS (PCI: its offset), 0 if none
 * @box_ovf_ctl: where status bits are acknowledged by writing them, if not
 *	in @box_status itself (write 1 to clear, as on BDX): NHM-EX boxes
 *	have an OVF_CTL register beside their status; 0 if none
 * @pmi_mask: global status bits box @idx reports its overflows in (the
 *	platform's &struct uncore_pmi); NULL if the type cannot raise a PMI
 * @box_stride: MSR distance between boxes of this type
 * @box_offsets: MSR offset of each box from box 0, where the boxes are not
 *	evenly spaced (NULL: @box_stride apart)
 * @num_aux: auxiliary-register slots, 0 if the type has none
 * @aux: the slots; the core writes them once with all-zero values after
 *	@ops->init_box
 * @write_aux: program slot @slot's registers with @val, in the order the
 *	registers' protocol asks; @regs (bit r: register r) are the ones
 *	whose value changed, which is all of them at box init. Slots are
 *	written in increasing order, all before the counter's enabling write.
 *	On the box's reading CPU, IRQs off (or at PCI probe, for box init)
 * @ops: how to drive it
 * @constraints: counter restrictions, terminated by a zero @counters entry
 * @avail: events that exist only under a condition, or NULL
 * @formats: format/ fields, NULL-terminated by name
 * @events: events/ aliases, NULL-terminated by name
 * @hw_config: validate the type-specific parts of an event and fill in
 *	what it needs of the auxiliary registers (@ue->aux), narrowing
 *	@ue->allowed where the event is tied to certain counters; return 0
 *	or a negative errno
 * @present: does box @idx exist in package @pkg
 * @forward: the type's events are counted by another PMU (K8's northbridge
 *	events by the core PMU's counters): rewrite a validated event for it
 *	(attr.type, attr.config). The core then returns -ENOENT from
 *	event_init, on which perf core offers the event to the PMU of the new
 *	attr.type (perf_init_event()); this PMU never sees it again. NULL:
 *	the type's boxes count their events themselves
 */
struct uncore_type {
	const char *name;
	bool pci;
	int num_boxes;
	int num_counters;
	int ctr_bits;
	int poll_bits;
	int fixed_ctr_bits;
	int max_inc;
	u64 clock_hz;
	const struct uncore_ctl_layout *ctl;
	u64 config_mask;
	u64 config1_mask;
	u64 config2_mask;
	u32 box_ctl;
	u64 box_ctl_init;
	u64 box_ctl_freeze;
	u64 box_ctl_run;
	bool write_twice;
	u32 event_ctl;
	u32 perf_ctr;
	u8 msr_ctl_stride;
	u8 msr_ctr_stride;
	const u16 *pci_ctrs;
	u32 fixed_ctl;
	u32 fixed_ctr;
	u32 box_status;
	u32 box_ovf_ctl;
	u64 (*pmi_mask)(int idx);
	u32 box_stride;
	const u32 *box_offsets;
	int num_aux;
	const struct uncore_aux_slot *aux;
	void (*write_aux)(struct uncore_box *box, int slot, const u64 *val,
			  u32 regs);
	const struct uncore_ops *ops;
	const struct uncore_constraint *constraints;
	const struct uncore_avail *avail;
	const struct uncore_format_desc *formats;
	const struct uncore_event_desc *events;
	int (*hw_config)(const struct uncore_type *type, struct perf_event *event,
			 struct uncore_event *ue);
	bool (*present)(const struct uncore_type *type, int idx, int pkg);
	int (*forward)(const struct uncore_type *type, struct perf_event *event);
};

/**
 * struct uncore_pmu - one registered struct pmu
 * @pmu: the perf pmu
 * @type: its box type
 * @idx: box index within the type
 * @name: "uncore_cbox_3"
 * @registered: perf_pmu_register() succeeded
 * @nr_events: events opened on this pmu and not yet freed
 * @used: an event was opened on this pmu since it was registered
 * @boxes: per logical package; NULL where the box does not exist
 * @attr_groups: sysfs groups handed to perf
 * @priv: sysfs storage owned by the core (sysfs.c)
 */
struct uncore_pmu {
	struct pmu pmu;
	const struct uncore_type *type;
	int idx;
	char name[32];
	bool registered;
	int nr_events;
	bool used;
	struct uncore_box **boxes;
	const struct attribute_group *attr_groups[4];
	void *priv;
};

/**
 * struct uncore_pmi - a platform's overflow interrupt (PMI) path
 * @type: the box type that holds the global registers; its box of each
 *	package (@gbox below) accounts the accesses
 * @route: a value for @unfreeze that sends the PMI to @cpu (on whose
 *	package it is written); 0 if the part cannot address @cpu
 * @read_status: the package's overflow status, only bits some box reports
 *	in; in NMI context, so MSRs only. Return 0 or the read's error
 * @ack: clear status bits @status, after their boxes' own status.
 *	Return 0 or the write's error
 * @freeze: stop every counter of the package now, its PMI routed by
 *	@route, until @unfreeze: for a pass that cannot know whether the
 *	overflow's own freeze has landed. Return 0 or the write's error
 * @unfreeze: let the package count again, its PMI routed by @route (a
 *	value of @route, or 0: routed nowhere). Return 0 or the write's
 *	error
 *
 * The core's PMI protocol (Documentation/uncore_pmu.rst, "The PMI
 * protocol") assumes an overflow of an interrupting counter freezes the
 * package until @unfreeze, and that status bits stay set until @ack.
 */
struct uncore_pmi {
	const struct uncore_type *type;
	u64 (*route)(int cpu);
	int (*read_status)(struct uncore_box *gbox, u64 *status);
	int (*ack)(struct uncore_box *gbox, u64 status);
	int (*freeze)(struct uncore_box *gbox, u64 route);
	int (*unfreeze)(struct uncore_box *gbox, u64 route);
};

/**
 * struct uncore_platform - what main.c needs of a supported part
 * @id: short name; a simulator must model the same part (msr_backend.h)
 * @name: shown in the load message
 * @probe: is this machine one the platform drives, beyond the CPU model
 *	that chose it, and is no other driver using its uncore? Return 0,
 *	or an errno after a message saying why not (NULL: always)
 * @types: NULL-terminated list of box types
 * @discover: find which boxes exist (called once, may sleep), or NULL
 * @cleanup: undo @discover, or NULL
 * @pci_driver: binds the PCI boxes (of types with .pci), or NULL
 * @pmi: the overflow interrupt path, NULL if the part has none
 * @available: does a condition of the event tables' avail column hold on
 *	this part (a K8 revision: "rev_e")? NULL: every condition holds
 * @pkg_init: package @pkg gained its first online CPU: set up what its
 *	boxes need to count (a global enable). On that CPU, in its CPU
 *	hotplug online callback (or module load), before the package's MSR
 *	boxes are initialized; NULL if nothing is needed
 * @pkg_exit: package @pkg's last online CPU is going: undo @pkg_init. On
 *	that CPU, in its offline callback (or module unload), after the
 *	package's events have been parked elsewhere; NULL if not needed
 */
struct uncore_platform {
	const char *id;
	const char *name;
	int (*probe)(void);
	const struct uncore_type * const *types;
	int (*discover)(void);
	void (*cleanup)(void);
	struct pci_driver *pci_driver;
	const struct uncore_pmi *pmi;
	bool (*available)(const char *cond);
	void (*pkg_init)(int pkg);
	void (*pkg_exit)(int pkg);
};

/* Helpers for box operations. */
static inline struct uncore_event *to_uevent(const struct perf_event *event)
{
	return event->pmu_private;
}

static inline bool is_fixed_event(const struct perf_event *event)
{
	return event->hw.idx == UNCORE_FIXED_IDX;
}

static inline int counter_width(const struct uncore_type *type,
				const struct perf_event *event)
{
	return is_fixed_event(event) ? type->fixed_ctr_bits : type->ctr_bits;
}

/* The width the poll timer reads an event's counter often enough for. */
static inline int uncore_poll_width(const struct uncore_type *type,
				    const struct perf_event *event)
{
	int width = counter_width(type, event);

	if (type->poll_bits && !is_fixed_event(event))
		width = min(width, type->poll_bits);
	return width;
}

/* main.c */
extern int uncore_max_pkgs;

/* The generic core (core/; internal.h lists its files). */
int uncore_core_init(const struct uncore_platform *plat);
void uncore_core_exit(void);
int uncore_pci_box_add(const struct uncore_type *type, int idx, int pkg,
		       struct pci_dev *pdev, struct pci_dev *aux_pdev);
void uncore_pci_box_remove(struct pci_dev *pdev);
u64 uncore_event_max_rate(const struct uncore_type *type, u64 config);
struct uncore_box *uncore_pkg_box(const struct uncore_type *type, int idx,
				  int pkg);
int uncore_event_config(const struct uncore_type *type, struct perf_event *event,
			struct uncore_event *ue);

/* access.c */
int uncore_access_init(const char *part);
void uncore_access_exit(void);
int uncore_msr_probe(u32 msr, u64 *val);
int uncore_msr_read(struct uncore_box *box, u32 msr, u64 *val);
int uncore_msr_write(struct uncore_box *box, u32 msr, u64 val);
int uncore_pci_read(struct uncore_box *box, struct pci_dev *pdev, int off,
		    u32 *val);
void uncore_pci_write(struct uncore_box *box, struct pci_dev *pdev, int off,
		      u32 val);
void uncore_box_fault(struct uncore_box *box, const char *what, u32 reg);
void uncore_box_answered(struct uncore_box *box);
void uncore_box_sound(struct uncore_box *box);
const char *uncore_access_backend(void);

/* logic.c: pure functions, unit-tested by tests/kunit. */
u64 uncore_delta(u64 prev, u64 now, int width);
int uncore_assign_counters(const u32 *allowed, const int *prev, int n,
			   int *assign, unsigned int *steps);
int uncore_aux_get(const struct uncore_aux_slot *slots,
		   struct uncore_aux_state *st, const struct uncore_aux_need *need,
		   u8 *choice, u64 *dirty);
void uncore_aux_put(const struct uncore_aux_slot *slots,
		    struct uncore_aux_state *st,
		    const struct uncore_aux_need *need, const u8 *choice);
u64 uncore_aux_scrub(const struct uncore_aux_slot *slots, int nslots,
		     struct uncore_aux_state *st);
struct uncore_aux_alt *uncore_aux_request(struct uncore_aux_need *need,
					  int slot, u32 fields);
struct uncore_aux_alt *uncore_aux_alternative(struct uncore_aux_need *need,
					      int slot, u32 fields);
u64 uncore_poll_period_ns(int width, u64 max_rate);
u64 uncore_preload(s64 left, int width);
u64 uncore_samples_due(s64 left, u64 period, s64 *next);
u64 uncore_scale_period(u64 count, u64 num, u64 den);
u32 uncore_constraint_counters(const struct uncore_constraint *c, u64 config,
			       int num_counters, u16 *max_inc);

/**
 * struct uncore_split_ops - how uncore_read_split() reads a counter
 * @read: read the upper (@hi) or the lower dword
 * @slack: the most the counter can have counted since the first @read
 *	began
 */
struct uncore_split_ops {
	u32 (*read)(void *ctx, bool hi);
	u64 (*slack)(void *ctx);
};

u64 uncore_read_split(const struct uncore_split_ops *ops, void *ctx, int width,
		      u64 prev);

#endif /* _UNCORE_PMU_UNCORE_H */
