// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of freeze on overflow: package locking that is safe
 * against NMIs, the timer that makes a pending freeze take effect, and
 * delivery of the PMI it owes as a real NMI.
 *
 * The model (bdx_regs.c) only records that a freeze is pending, and when
 * it takes effect, or that a PMI is owed. Whoever leaves a package so
 * queues its irq_work on unlock (irq_work_queue() is NMI-safe: the
 * driver's NMI handler is among the callers). The irq_work arms the
 * package's hrtimer for the moment sim time reaches the freeze; the timer
 * takes the PMI from the model and sends it.
 *
 * A PMI is an NMI raised on the target CPU itself, from a function that
 * smp_call_function_single_async() runs there in IPI context with IRQs
 * off. Every simulator critical section runs with IRQs off too, so at that
 * point the target holds no package lock: the NMI handlers, ours and then
 * the driver's (which reads uncore MSRs through the simulator, so takes
 * the package lock), cannot find that lock held by their own CPU. The
 * function waits until our handler has seen its NMI, so there is at most
 * one in flight per CPU and two PMIs are never merged into one NMI.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>
#include <asm/nmi.h>

#include "sim.h"

static unsigned int freeze_delay_ns = 1000;
module_param(freeze_delay_ns, uint, 0644);
MODULE_PARM_DESC(freeze_delay_ns,
		 "Sim ns from an overflow message to the global freeze (default 1000)");

/* How long a CPU waits for the NMI it raised on itself. */
#define SIM_NMI_WAIT_US		20000
/* Width of GLOBAL_CTL.pmi_core_sel. */
#define SIM_PMI_CORES		18
#define SIM_NMI_NAME		"uncore_sim"
/* Shortest wait for a clock-driven carry (see sim_pmi_work()). */
#define SIM_CARRY_MIN_NS	1000

/**
 * struct sim_pmi_cpu - PMI delivery state of one CPU
 * @csd: runs sim_pmi_ipi() on the CPU; not re-issued while in flight
 * @owed_wake: PMIs to send however idle the CPU is (wk_on_pmi = 1)
 * @owed_nowake: PMIs to send only if the CPU is awake (wk_on_pmi = 0)
 * @nmi_sent: NMIs sim_pmi_ipi() raised on this CPU
 * @nmi_seen: of those, the ones sim_nmi_handler() claimed or gave up
 * @in_lock: the CPU is inside, or spinning for, a package lock
 */
struct sim_pmi_cpu {
	call_single_data_t csd;
	atomic_t owed_wake;
	atomic_t owed_nowake;
	atomic_t nmi_sent;
	atomic_t nmi_seen;
	bool in_lock;
};

static DEFINE_PER_CPU(struct sim_pmi_cpu, sim_pmi_cpus);
/* sim_pmi_ipi() calls queued and not finished; unload waits for them. */
static atomic_t sim_pmi_inflight = ATOMIC_INIT(0);
/* Set on unload: no more kicks, no more timers. */
static bool sim_pmi_stopping;

/* The package of the calling CPU, NULL if the simulator has none. */
static struct sim_socket *sim_cpu_socket(void)
{
	unsigned int p = topology_physical_package_id(smp_processor_id());

	return p < sim_nr_pkgs ? &sim_sockets[p] : NULL;
}

/**
 * sim_nmi_busy() - is this an NMI that interrupted a simulator lock holder
 * @s: the package about to be locked
 *
 * An NMI that interrupted its own CPU inside (or spinning for) a package
 * lock, e.g. a backtrace NMI, must not take a package lock: it would wait
 * for itself. Accessors reachable from NMI context (the MSR backend, the
 * PCI config accessors) ask this first and answer -EBUSY without touching
 * the model. Outside NMI context the answer is always false (a lock
 * holder has IRQs off, so only an NMI can interrupt it).
 *
 * Return: true, counted in @s's nmi_busy, if the caller must not lock.
 */
bool sim_nmi_busy(struct sim_socket *s)
{
	if (!in_nmi() || !this_cpu_read(sim_pmi_cpus.in_lock))
		return false;
	atomic64_inc(&s->nmi_busy);
	return true;
}

/**
 * sim_lock() - take a package's lock, IRQs off
 * @s: the package
 * @flags: saved IRQ state for sim_unlock()
 *
 * In NMI context the lock is taken by spinning on trylock: lockdep
 * reports any other acquisition in NMI of a lock also used outside NMI.
 * It is safe here: the lock is only ever held with IRQs off, briefly and
 * never while waiting for another CPU, and sim_nmi_busy() keeps an NMI
 * from waiting for its own CPU.
 */
void sim_lock(struct sim_socket *s, unsigned long *flags)
	__acquires(&s->lock)
{
	local_irq_save(*flags);
	this_cpu_write(sim_pmi_cpus.in_lock, true);
	if (in_nmi()) {
		while (!raw_spin_trylock(&s->lock))
			cpu_relax();
	} else {
		raw_spin_lock(&s->lock);
	}
	/* Tests may change the parameter at run time. */
	s->pkg.freeze_delay_ns = READ_ONCE(freeze_delay_ns);
}

static void sim_unlock_kick(struct sim_socket *s, unsigned long flags,
			    bool kick)
	__releases(&s->lock)
{
	const struct sim_pkg *pkg = &s->pkg;

	if (kick && !READ_ONCE(sim_pmi_stopping) &&
	    (pkg->freeze_pending || pkg->pmi_pending || pkg->carry_check))
		irq_work_queue(&s->pmi_work);
	raw_spin_unlock(&s->lock);
	this_cpu_write(sim_pmi_cpus.in_lock, false);
	local_irq_restore(flags);
}

/**
 * sim_unlock() - release a package's lock taken by sim_lock()
 * @s: the package
 * @flags: IRQ state sim_lock() saved
 *
 * If the package has a freeze pending or a PMI owed, or a write may have
 * moved the next carry of a clock-driven counter, its irq_work is queued
 * (again): it (re)arms the timer as sim time now stands.
 */
void sim_unlock(struct sim_socket *s, unsigned long flags)
	__releases(&s->lock)
{
	sim_unlock_kick(s, flags, true);
}

/* After a change of the sim clock: re-time every pending freeze. */
void sim_pmi_kick_all(void)
{
	unsigned long flags;
	unsigned int p;

	for (p = 0; p < sim_nr_pkgs; p++) {
		sim_lock(&sim_sockets[p], &flags);
		sim_sockets[p].pkg.carry_check = true;
		sim_unlock(&sim_sockets[p], flags);
	}
}

/*
 * Arm the timer to expire when sim time reaches the pending freeze: at
 * once if it already has, if the sim clock is frozen (only the timer can
 * then apply the freeze), or if only a PMI is owed. With nothing pending,
 * arm it for the next carry of a clock-driven counter with ov_en, if any:
 * nothing else would bring the model to that time.
 */
static void sim_pmi_work(struct irq_work *work)
{
	struct sim_socket *s = container_of(work, struct sim_socket, pmi_work);
	struct sim_pkg *pkg = &s->pkg;
	unsigned long flags;
	u64 now, delay = 0;
	bool arm;

	sim_lock(s, &flags);
	now = sim_clock_now();
	if (pkg->carry_check) {
		pkg->carry_check = false;
		sim_pkg_advance(pkg, now);
		s->carry_at = sim_clock_frozen() ? U64_MAX :
			      sim_pkg_next_carry(pkg);
	}
	arm = pkg->freeze_pending || pkg->pmi_pending;
	if (pkg->freeze_pending && !sim_clock_frozen() && pkg->freeze_at > now)
		delay = pkg->freeze_at - now;
	if (!arm && s->carry_at != U64_MAX) {
		arm = true;
		/* At least 1 us: a carry found already past is a model bug. */
		delay = max(s->carry_at, now + SIM_CARRY_MIN_NS) - now;
	}
	sim_unlock_kick(s, flags, false);
	if (arm && !READ_ONCE(sim_pmi_stopping))
		hrtimer_start(&s->pmi_timer, ns_to_ktime(delay),
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

/*
 * In IPI context on the target, IRQs off, so holding no package lock.
 * wk_on_pmi = 0 sends the PMI "only to cores already awake" (Table 2-2):
 * a CPU whose IPI interrupted its idle task is taken as asleep, and its
 * PMIs of that kind are dropped.
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

	for_each_set_bit(core, &cores, SIM_PMI_CORES) {
		cpu = sim_pmi_target(s->pkg.id, core);
		if (cpu < 0)
			atomic64_inc(&s->pmis_dropped);
		else
			sim_pmi_post(s, cpu, wake);
	}
}

/*
 * Sim time has reached the pending freeze, or the sim clock is frozen, or
 * a clock-driven counter's carry is due. The last only brings the model
 * to now, which finds the carry and asks for a freeze; the irq_work then
 * times that freeze and the next carry.
 */
static enum hrtimer_restart sim_pmi_timer_fn(struct hrtimer *timer)
{
	struct sim_socket *s = container_of(timer, struct sim_socket,
					    pmi_timer);
	struct sim_pkg *pkg = &s->pkg;
	unsigned long flags;
	u32 core_sel = 0;
	bool wake = false, pmi = false;
	u64 now;

	sim_lock(s, &flags);
	now = sim_clock_now();
	if (pkg->pmi_pending || (pkg->freeze_pending &&
				 (sim_clock_frozen() || pkg->freeze_at <= now)))
		pmi = sim_pkg_take_pmi(pkg, now, &core_sel, &wake);
	else
		sim_pkg_advance(pkg, now);
	pkg->carry_check = true;
	sim_unlock(s, flags);
	if (pmi)
		sim_pmi_deliver(s, core_sel, wake);
	return HRTIMER_NORESTART;
}

/*
 * First in the NMI_LOCAL chain: claim an NMI this CPU raised for a PMI,
 * so the kernel never calls it unknown. The handlers after this one, the
 * driver's among them, still run for it and do their own claiming.
 */
static int sim_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct sim_pmi_cpu *pc = this_cpu_ptr(&sim_pmi_cpus);
	struct sim_socket *s;
	int seen;

	do {
		seen = atomic_read(&pc->nmi_seen);
		if (sim_seq_reached(seen, atomic_read(&pc->nmi_sent)))
			return NMI_DONE;
	} while (atomic_cmpxchg(&pc->nmi_seen, seen, seen + 1) != seen);
	s = sim_cpu_socket();
	if (s)
		atomic64_inc(&s->pmis_sent);
	return NMI_HANDLED;
}

int sim_pmi_init(void)
{
	unsigned int p;
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_CSD(&per_cpu(sim_pmi_cpus, cpu).csd, sim_pmi_ipi, NULL);
	for (p = 0; p < sim_nr_pkgs; p++) {
		struct sim_socket *s = &sim_sockets[p];

		init_irq_work(&s->pmi_work, sim_pmi_work);
		hrtimer_init(&s->pmi_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		s->pmi_timer.function = sim_pmi_timer_fn;
		s->carry_at = U64_MAX;
	}
	return register_nmi_handler(NMI_LOCAL, sim_nmi_handler, NMI_FLAG_FIRST,
				    SIM_NMI_NAME);
}

/*
 * Nothing may kick, arm or deliver any more once this returns. The NMI
 * handler goes last: NMIs raised by IPI functions still running must find
 * it.
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
