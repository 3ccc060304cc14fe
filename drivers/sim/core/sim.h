/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: register-level models of uncore performance counters. This
 * header is the part-independent core's (drivers/sim/core/): the packages
 * and their lock, sim time, PMI delivery, faults, the debugfs plumbing,
 * and struct sim_model, what every part's model provides. Each model has
 * its directory and header beside it (bdx/, nhmex/, p4mp/, k8/).
 */
#ifndef _UNCORE_SIM_H
#define _UNCORE_SIM_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct dentry;
struct seq_file;

#define SIM_MAX_PKGS		8
/* Upper bound on sim time: keeps time * hz / 1e9 within 64 bits. */
#define SIM_TIME_MAX_NS		BIT_ULL(60)
#define SIM_MAX_CLK_HZ		10000000000ULL

/**
 * struct sim_socket - a package's lock and the machinery delivering its
 *	PMIs (pmi.c), for every model with PMIs
 * @lock: taken with IRQs off, through sim_lock(), by every accessor of the
 *	package's model state, which each model keeps in its own table,
 *	indexed by @id
 * @id: the package's number, its index in sim_sockets[]
 * @pmi_work: queued (NMI-safe) at sim_unlock() when the model's
 *	&sim_model.pmi_wanted says so; arms @pmi_timer
 * @pmi_timer: expires at the sim time &sim_model.pmi_due gave; takes the
 *	model's owed PMI (&sim_model.pmi_take) and delivers it
 * @pmis_sent: PMIs that reached a CPU of this package as an NMI (seen by
 *	the simulator's NMI handler, which leaves the claim to the driver)
 * @pmis_dropped: PMIs not sent: not to wake an idle target core, or no
 *	online CPU for a core of pmi_core_sel
 * @foreign_nmis: NMIs raised by an "nmi" fault on a CPU of this package
 * @nmi_busy: accesses refused with -EBUSY because an NMI interrupted this
 *	CPU inside a simulator critical section
 */
struct sim_socket {
	raw_spinlock_t lock;
	unsigned int id;
	struct irq_work pmi_work;
	struct hrtimer pmi_timer;
	atomic64_t pmis_sent;
	atomic64_t pmis_dropped;
	atomic64_t foreign_nmis;
	atomic64_t nmi_busy;
};

/**
 * struct sim_box_faults - the boxes a model's "gone" and "stop" faults name
 * @nr_types: kinds of box, numbered from 0
 * @name: the name of kind @type in the fault rules
 * @count: instances of kind @type: a rule's idx is below it
 * @is_pci: is kind @type a PCI function, which a "gone" rule may name
 * @stop: under the package's lock (sim_lock()), in process context: bring
 *	the package up to sim time now, then hold (@on) or release the
 *	counters of box @idx of kind @type; nothing if there is no such box
 *
 * fault.c parses, checks and prints the rules with these; the model's PCI
 * config accessors look the "gone" rules up (sim_fault_pci_gone()).
 */
struct sim_box_faults {
	unsigned int nr_types;
	const char *(*name)(unsigned int type);
	int (*count)(unsigned int type);
	bool (*is_pci)(unsigned int type);
	void (*stop)(struct sim_socket *s, unsigned int type, unsigned int idx,
		     bool on);
};

/**
 * struct sim_model - a part the simulator can be
 * @part: its id, the driver's &uncore_platform.id ("bdx")
 * @name: for the load message
 * @max_pkgs: packages it can model
 * @match: is the CPU (boot_cpu_data) this part
 * @init: set up @sim_nr_pkgs packages at sim time @now
 * @exit: undo @init
 * @access: the MSR seam (msr_backend.h): read @msr of the calling CPU's
 *	package into *@val, or write *@val to it
 * @debugfs_init: add its files to the simulator's debugfs directory
 * @clock_moved: sim time was frozen, run or advanced; NULL if it needs
 *	no telling
 * @pmi_cores: width of its pmi_core_sel: PMIs go to cores 0 to
 *	@pmi_cores - 1 (by topology_core_id()) of the package
 * @locked: called by sim_lock() as soon as it holds a package's lock,
 *	e.g. to take a run-time parameter; NULL for nothing
 * @pmi_wanted: under the package lock, at sim_unlock(): does the package
 *	need its PMI work queued (a freeze pending, a PMI owed, a timer to
 *	re-time)?
 * @pmi_due: under the lock, from the PMI work, at sim time @now: when the
 *	PMI timer should expire (a pending freeze's time, a clock-driven
 *	carry's); @now or earlier for at once, U64_MAX for not at all
 * @pmi_take: under the lock, from the PMI timer, at sim time @now: take
 *	the PMI owed, if any. Return true, with the cores it goes to (bit n:
 *	core ID n) in *@cores and in *@wake whether a core that is idle gets
 *	it too; false if none is owed.
 * @audit: for debugfs "audit": print what the driver left behind, one line
 *	per leftover (a counter enabled or with its overflow interrupt on, a
 *	filter or match register not 0, an overflow not handled), then
 *	"leftovers N rsvd_writes R faults F" (R and F: the model's counts of
 *	writes of bits nobody may set and of faulting accesses since load).
 *	Takes each package's lock as the state dump does. 0 or -ENOMEM;
 *	NULL for none.
 * @reset_stats: under the package's lock (sim_lock()): zero @s's access
 *	and event statistics, for debugfs "reset_stats", which zeroes the
 *	socket's PMI and NMI counts itself; NULL: no such file
 * @box_faults: the boxes its "gone" and "stop" faults name (fault.c);
 *	NULL: it has no such faults
 *
 * A model whose packages deliver PMIs locks them with sim_lock(), calls
 * sim_pmi_init() from @init and sim_pmi_exit() from @exit, and provides
 * @pmi_cores, @pmi_wanted, @pmi_due and @pmi_take; the others leave them
 * 0 and NULL.
 */
struct sim_model {
	const char *part;
	const char *name;
	unsigned int max_pkgs;
	bool (*match)(void);
	int (*init)(u64 now);
	void (*exit)(void);
	int (*access)(u32 msr, u64 *val, bool write);
	void (*debugfs_init)(struct dentry *dir);
	void (*clock_moved)(void);
	unsigned int pmi_cores;
	void (*locked)(struct sim_socket *s);
	bool (*pmi_wanted)(const struct sim_socket *s);
	u64 (*pmi_due)(struct sim_socket *s, u64 now);
	bool (*pmi_take)(struct sim_socket *s, u64 now, u32 *cores,
			 bool *wake);
	int (*audit)(struct seq_file *m);
	void (*reset_stats)(struct sim_socket *s);
	const struct sim_box_faults *box_faults;
};

extern const struct sim_model sim_bdx_model, sim_p4mp_model, sim_nhmex_model,
			       sim_k8_model;

/* socket.c */
extern struct sim_socket sim_sockets[SIM_MAX_PKGS];
extern unsigned int sim_nr_pkgs;
extern const struct sim_model *sim_model;
extern bool sim_pmi_stopping;
int sim_this_pkg(void);
bool sim_nmi_busy(struct sim_socket *s);
void sim_lock(struct sim_socket *s, unsigned long *flags)
	__acquires(&s->lock);
void sim_unlock_kick(struct sim_socket *s, unsigned long flags, bool kick)
	__releases(&s->lock);
void sim_unlock(struct sim_socket *s, unsigned long flags)
	__releases(&s->lock);

/* clock.c */
u64 sim_clock_now(void);
bool sim_clock_frozen(void);
void sim_clock_freeze(void);
void sim_clock_run(void);
int sim_clock_advance(u64 ns);

void sim_clock_tick(u64 ns);
void sim_pci_set_tick(u64 ns);
u64 sim_pci_get_tick(void);

/* util.c */
char *sim_copy_in(const char __user *ubuf, size_t len);

/* pmi.c */
int sim_pmi_init(void);
void sim_pmi_exit(void);
void sim_foreign_nmi_on(int cpu, unsigned int n);
void sim_foreign_nmi_wait(void);

/* fault.c */
bool sim_fault_msr(int pkg, u32 msr, bool write);
void sim_fault_msr_locked(int pkg, u32 msr);
bool sim_fault_pci_gone(int pkg, unsigned int type, unsigned int idx);
void sim_fault_pci_nmi(int pkg, unsigned int type, unsigned int idx);
void sim_fault_debugfs_init(struct dentry *dir);
void sim_fault_exit(void);

/* debugfs.c */
void sim_debugfs_init(void);
void sim_debugfs_exit(void);

/**
 * struct sim_cmd_file - a debugfs file whose lines are commands
 * @name: the file's name
 * @size: the size of one parsed command
 * @parse: parse one non-empty line into a command; 0 or an error
 * @apply: carry a parsed command out
 * @kind: passed to both: which commands the file takes (the model's own
 *	numbering)
 */
struct sim_cmd_file {
	const char *name;
	size_t size;
	int (*parse)(char *line, void *cmd, unsigned int kind);
	void (*apply)(const void *cmd, unsigned int kind);
	unsigned int kind;
};

void sim_debugfs_cmd_files(struct dentry *dir, const struct sim_cmd_file *cf,
			   unsigned int n);

int sim_each_snapshot(struct seq_file *m, size_t size,
		      void (*take)(unsigned int pkg, void *snap),
		      void (*use)(struct seq_file *m, unsigned int pkg,
				  void *snap, void *arg),
		      void *arg);

/**
 * struct sim_audit - the totals of debugfs "audit"
 * @leftovers: leftovers printed, one line each
 * @rsvd_writes: writes of bits nobody may set, since load
 * @faults: accesses the part would fault on, since load
 */
struct sim_audit {
	unsigned int leftovers;
	u64 rsvd_writes;
	u64 faults;
};

int sim_audit_end(struct seq_file *m, const struct sim_audit *a);

#endif /* _UNCORE_SIM_H */
