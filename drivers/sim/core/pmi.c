// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of PMIs, for every model that has them: the setup of
 * the packages' locks (safe against NMIs, socket.c), the timer that brings
 * a package to the time something is due (a pending freeze, a clock-driven
 * carry, an owed PMI), and delivery of the PMI as a real NMI.
 *
 * A register model only records what is due: a freeze pending and when it
 * takes effect, or a PMI owed. What that means for the package is the
 * model's to say, through the hooks of struct sim_model: whoever leaves a
 * package that needs it (&sim_model.pmi_wanted) queues its irq_work on
 * unlock (irq_work_queue() is NMI-safe: the driver's NMI handler is among
 * the callers). The irq_work arms the package's hrtimer for the sim time
 * the model gives (&sim_model.pmi_due); the timer takes the PMI from the
 * model (&sim_model.pmi_take) and sends it to the cores it names.
 *
 * A PMI is an NMI raised on the target CPU itself, from a function that
 * smp_call_function_single_async() runs there in IPI context with IRQs
 * off. Every simulator critical section runs with IRQs off too, so at that
 * point the target holds no package lock: the NMI handlers, ours and then
 * the driver's (which reads uncore MSRs through the simulator, so takes
 * the package lock), cannot find that lock held by their own CPU. The
 * function waits until our handler has seen its NMI, so there is at most
 * one in flight per CPU and two PMIs are never merged into one NMI.
 *
 * Our handler counts a PMI but does not claim it, as no hardware would:
 * a PMI the driver does not claim is an unknown NMI to the kernel, which
 * reports it ("NMI received for unknown reason"), and the tests see that.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>

#include "sim.h"

/* How long a CPU waits for the NMI it raised on itself. */
#define SIM_NMI_WAIT_US		20000
#define SIM_NMI_NAME		"uncore_sim"

/**
 * struct sim_pmi_cpu - PMI delivery state of one CPU
 * @csd: runs sim_pmi_ipi() on the CPU; not re-issued while in flight
 * @owed_wake: PMIs to send however idle the CPU is (bdx: wk_on_pmi = 1)
 * @owed_nowake: PMIs to send only if the CPU is awake (bdx: wk_on_pmi = 0)
 * @nmi_sent: NMIs sim_pmi_ipi() raised on this CPU
 * @nmi_seen: of those, the ones sim_nmi_handler() claimed or gave up
 * @foreign_sent: NMIs sim_foreign_nmi() raised on this CPU
 * @foreign_seen: of those, the ones sim_nmi_handler() claimed
 */
struct sim_pmi_cpu {
	call_single_data_t csd;
	atomic_t owed_wake;
	atomic_t owed_nowake;
	atomic_t nmi_sent;
	atomic_t nmi_seen;
	atomic_t foreign_sent;
	atomic_t foreign_seen;
};

static DEFINE_PER_CPU(struct sim_pmi_cpu, sim_pmi_cpus);
/* sim_pmi_ipi() calls queued and not finished; unload waits for them. */
static atomic_t sim_pmi_inflight = ATOMIC_INIT(0);

/* The package of the calling CPU, NULL if the simulator has none. */
static struct sim_socket *sim_cpu_socket(void)
{
	unsigned int p = topology_physical_package_id(smp_processor_id());

	return p < sim_nr_pkgs ? &sim_sockets[p] : NULL;
}

/*
 * Arm the timer for the sim time the model says something is due: at once
 * if that time has come (or the model answers so because the sim clock is
 * frozen and only the timer can move the package on), not at all if
 * nothing is. An armed timer is left as it is when nothing is due: it
 * finds nothing to do.
 */
static void sim_pmi_work(struct irq_work *work)
{
	struct sim_socket *s = container_of(work, struct sim_socket, pmi_work);
	unsigned long flags;
	u64 now, due;

	sim_lock(s, &flags);
	now = sim_clock_now();
	due = sim_model->pmi_due(s, now);
	sim_unlock_kick(s, flags, false);
	if (due != U64_MAX && !READ_ONCE(sim_pmi_stopping))
		hrtimer_start(&s->pmi_timer,
			      ns_to_ktime(due > now ? due - now : 0),
			      HRTIMER_MODE_REL_HARD);
}

/* Has sequence number @seen reached @seq (both may wrap)? */
static bool sim_seq_reached(int seen, int seq)
{
	return (int)((unsigned int)seen - (unsigned int)seq) >= 0;
}

/* Raise an NMI on this CPU and wait until sim_nmi_handler() has seen it. */
static void sim_pmi_nmi_self(struct sim_pmi_cpu *pc)
{
	int seq = atomic_inc_return(&pc->nmi_sent);
	int seen, i;

	/*
	 * Not send_IPI_self(): in x2APIC mode that writes the SELF IPI
	 * register, which has no delivery mode and cannot raise an NMI.
	 */
	apic->send_IPI(smp_processor_id(), NMI_VECTOR);
	for (i = 0; i < SIM_NMI_WAIT_US; i++) {
		if (sim_seq_reached(atomic_read(&pc->nmi_seen), seq))
			return;
		udelay(1);
	}
	pr_warn_ratelimited("CPU %d: simulated PMI not seen after %d us\n",
			    smp_processor_id(), SIM_NMI_WAIT_US);
	/* Give it up, so that it cannot make the handler claim another. */
	do {
		seen = atomic_read(&pc->nmi_seen);
	} while (!sim_seq_reached(seen, seq) &&
		 atomic_cmpxchg(&pc->nmi_seen, seen, seq) != seen);
}

/**
 * sim_foreign_nmi_on() - raise NMIs on a CPU that are no PMI
 * @cpu: the CPU, online
 * @n: how many
 *
 * For the "nmi" fault (fault.c): an NMI from elsewhere (a watchdog,
 * another PMU) landing where a test chose. The simulator's handler claims
 * it, so the kernel does not call it unknown; the driver's handler runs for
 * it too and must find nothing of its own. Any context; not waited for (on
 * this CPU in NMI context it can only arrive once the current handler
 * returns).
 */
void sim_foreign_nmi_on(int cpu, unsigned int n)
{
	struct sim_pmi_cpu *pc = per_cpu_ptr(&sim_pmi_cpus, cpu);
	unsigned int p = topology_physical_package_id(cpu);

	if (p < sim_nr_pkgs)
		atomic64_add(n, &sim_sockets[p].foreign_nmis);
	while (n--) {
		/* Counted before it is sent: its handler looks for it. */
		atomic_inc(&pc->foreign_sent);
		apic->send_IPI(cpu, NMI_VECTOR);
	}
}

/**
 * sim_foreign_nmi_wait() - wait until this CPU took the NMIs raised on it
 *
 * For a rule that must land its NMIs inside the access that raised them:
 * a self-IPI's NMI comes within microseconds, and the wait gives up after
 * 10 ms. Not in NMI context, where they cannot come before it returns.
 */
void sim_foreign_nmi_wait(void)
{
	struct sim_pmi_cpu *pc = this_cpu_ptr(&sim_pmi_cpus);
	int i;

	for (i = 0; i < 10000; i++) {
		if (sim_seq_reached(atomic_read(&pc->foreign_seen),
				    atomic_read(&pc->foreign_sent)))
			return;
		udelay(1);
	}
}

/*
 * In IPI context on the target, IRQs off, so holding no package lock.
 * A PMI not to wake its core (bdx: wk_on_pmi = 0 sends it "only to cores
 * already awake", Table 2-2) is dropped if the IPI interrupted the CPU's
 * idle task: the CPU is taken as asleep.
 */
static void sim_pmi_ipi(void *info)
{
	struct sim_pmi_cpu *pc = this_cpu_ptr(&sim_pmi_cpus);
	struct sim_socket *s = sim_cpu_socket();
	int dropped = atomic_xchg(&pc->owed_nowake, 0);
	int n = atomic_xchg(&pc->owed_wake, 0);

	if (!is_idle_task(current)) {
		n += dropped;
		dropped = 0;
	}
	if (dropped && s)
		atomic64_add(dropped, &s->pmis_dropped);
	while (n-- > 0)
		sim_pmi_nmi_self(pc);
	atomic_dec(&sim_pmi_inflight);
}

/* The lowest-numbered online CPU of core @core of package @pkg, or -1. */
static int sim_pmi_target(unsigned int pkg, unsigned int core)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if ((unsigned int)topology_physical_package_id(cpu) == pkg &&
		    topology_core_id(cpu) == core)
			return cpu;
	return -1;
}

static void sim_pmi_post(struct sim_socket *s, int cpu, bool wake)
{
	struct sim_pmi_cpu *pc = per_cpu_ptr(&sim_pmi_cpus, cpu);
	int ret, n;

	atomic_inc(wake ? &pc->owed_wake : &pc->owed_nowake);
	atomic_inc(&sim_pmi_inflight);
	ret = smp_call_function_single_async(cpu, &pc->csd);
	if (!ret)
		return;
	atomic_dec(&sim_pmi_inflight);
	/*
	 * -EBUSY: the call in flight has not started yet (an async csd is
	 * released just before its function runs), so it sends this PMI too.
	 * Otherwise the CPU has gone offline: nobody will.
	 */
	if (ret == -EBUSY)
		return;
	n = atomic_xchg(&pc->owed_wake, 0) + atomic_xchg(&pc->owed_nowake, 0);
	atomic64_add(n, &s->pmis_dropped);
}

/* One PMI to each core of @core_sel; a core without an online CPU gets none. */
static void sim_pmi_deliver(struct sim_socket *s, u32 core_sel, bool wake)
{
	unsigned long cores = core_sel;
	unsigned int core;
	int cpu;

	for_each_set_bit(core, &cores, sim_model->pmi_cores) {
		cpu = sim_pmi_target(s->id, core);
		if (cpu < 0)
			atomic64_inc(&s->pmis_dropped);
		else
			sim_pmi_post(s, cpu, wake);
	}
}

/*
 * The sim time the model gave has come: it takes the PMI owed, if any, or
 * just moves the package on (a clock-driven carry found this way asks for
 * a freeze, which its unlock times in turn).
 */
static enum hrtimer_restart sim_pmi_timer_fn(struct hrtimer *timer)
{
	struct sim_socket *s = container_of(timer, struct sim_socket,
					    pmi_timer);
	unsigned long flags;
	u32 cores = 0;
	bool wake = false, pmi;

	sim_lock(s, &flags);
	pmi = sim_model->pmi_take(s, sim_clock_now(), &cores, &wake);
	sim_unlock(s, flags);
	if (pmi)
		sim_pmi_deliver(s, cores, wake);
	return HRTIMER_NORESTART;
}

/* An NMI of sim_foreign_nmi(), if one is owed: claimed, as its sender would. */
static int sim_foreign_claim(struct sim_pmi_cpu *pc)
{
	int seen;

	do {
		seen = atomic_read(&pc->foreign_seen);
		if (sim_seq_reached(seen, atomic_read(&pc->foreign_sent)))
			return NMI_DONE;
	} while (atomic_cmpxchg(&pc->foreign_seen, seen, seen + 1) != seen);
	return NMI_HANDLED;
}

/*
 * First in the NMI_LOCAL chain: count an NMI this CPU raised for a PMI
 * (the sender waits for that), and leave it to the handlers after this
 * one, the driver's among them: unclaimed, the kernel reports it as
 * unknown. An NMI of sim_foreign_nmi() is claimed here, as the agent that
 * raised it would claim it.
 */
static int sim_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct sim_pmi_cpu *pc = this_cpu_ptr(&sim_pmi_cpus);
	struct sim_socket *s;
	int seen;

	do {
		seen = atomic_read(&pc->nmi_seen);
		if (sim_seq_reached(seen, atomic_read(&pc->nmi_sent)))
			return sim_foreign_claim(pc);
	} while (atomic_cmpxchg(&pc->nmi_seen, seen, seen + 1) != seen);
	s = sim_cpu_socket();
	if (s)
		atomic64_inc(&s->pmis_sent);
	return NMI_DONE;
}

/**
 * sim_pmi_init() - set up every package's lock and PMI machinery
 *
 * Context: from &sim_model.init of the model in sim_model. Its hooks may
 * be called from here on, so what they look at must be ready.
 * Return: 0 or an error, with nothing to undo.
 */
int sim_pmi_init(void)
{
	const struct sim_model *m = sim_model;
	unsigned int p;
	int cpu;

	/* The cores come as a u32 mask. */
	if (WARN_ON(!m->pmi_cores || m->pmi_cores > 32 || !m->pmi_wanted ||
		    !m->pmi_due || !m->pmi_take))
		return -EINVAL;
	for_each_possible_cpu(cpu)
		INIT_CSD(&per_cpu(sim_pmi_cpus, cpu).csd, sim_pmi_ipi, NULL);
	for (p = 0; p < sim_nr_pkgs; p++) {
		struct sim_socket *s = &sim_sockets[p];

		raw_spin_lock_init(&s->lock);
		s->id = p;
		init_irq_work(&s->pmi_work, sim_pmi_work);
		hrtimer_init(&s->pmi_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		s->pmi_timer.function = sim_pmi_timer_fn;
	}
	return register_nmi_handler(NMI_LOCAL, sim_nmi_handler, NMI_FLAG_FIRST,
				    SIM_NMI_NAME);
}

/**
 * sim_pmi_exit() - stop every package's PMI machinery
 *
 * Context: from &sim_model.exit of the model in sim_model. Nothing may
 * kick, arm or deliver any more once this returns. The NMI handler goes
 * last: NMIs raised by IPI functions still running must find it.
 */
void sim_pmi_exit(void)
{
	unsigned long flags;
	unsigned int p;

	WRITE_ONCE(sim_pmi_stopping, true);
	/* A kick that missed the flag has been queued once this is through. */
	for (p = 0; p < sim_nr_pkgs; p++) {
		sim_lock(&sim_sockets[p], &flags);
		sim_unlock_kick(&sim_sockets[p], flags, false);
	}
	for (p = 0; p < sim_nr_pkgs; p++)
		irq_work_sync(&sim_sockets[p].pmi_work);
	for (p = 0; p < sim_nr_pkgs; p++)
		hrtimer_cancel(&sim_sockets[p].pmi_timer);
	while (atomic_read(&sim_pmi_inflight))
		usleep_range(1000, 2000);
	/* sim_pmi_ipi() runs with IRQs off: this waits for it to return. */
	synchronize_rcu();
	unregister_nmi_handler(NMI_LOCAL, SIM_NMI_NAME);
}
