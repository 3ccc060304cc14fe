// SPDX-License-Identifier: GPL-2.0
/*
 * The packages, for every model: the table of struct sim_socket, one per
 * package of the machine, the model chosen at load (main.c), and the
 * package lock, which every accessor of a package's model state takes, in
 * any context the driver reaches the simulator in, NMI included; so the
 * lock is safe against NMIs. Releasing it queues the package's PMI work
 * when the model asks (pmi.c, which sets the sockets up).
 */
#include <linux/compiler.h>
#include <linux/hardirq.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/topology.h>

#include "sim.h"

/* Package n of the machine; the first sim_nr_pkgs are in use. */
struct sim_socket sim_sockets[SIM_MAX_PKGS];
/* Packages of the machine, counted at load (main.c). */
unsigned int sim_nr_pkgs;

/* The model this CPU chose; set once at load (main.c). */
const struct sim_model *sim_model;

/* The CPU is inside, or spinning for, a package lock. */
static DEFINE_PER_CPU(bool, sim_in_lock);

/* Set on unload (sim_pmi_exit()): no more kicks, no more timers. */
bool sim_pmi_stopping;

/**
 * sim_this_pkg() - the package of the calling CPU
 *
 * Context: any; the MSR seam's accesses go there (msr_backend.h).
 * Return: its index in sim_sockets[], or -1 if the simulator has none.
 */
int sim_this_pkg(void)
{
	unsigned int pkg = topology_physical_package_id(smp_processor_id());

	return pkg < sim_nr_pkgs ? pkg : -1;
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
	if (!in_nmi() || !this_cpu_read(sim_in_lock))
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
	this_cpu_write(sim_in_lock, true);
	if (in_nmi()) {
		while (!raw_spin_trylock(&s->lock))
			cpu_relax();
	} else {
		raw_spin_lock(&s->lock);
	}
	if (sim_model->locked)
		sim_model->locked(s);
}

/**
 * sim_unlock_kick() - release a package's lock, kicking its PMI work or not
 * @s: the package
 * @flags: IRQ state sim_lock() saved
 * @kick: queue the package's PMI work if the model wants it (sim_unlock());
 *	false for the PMI work itself and for unload (pmi.c)
 */
void sim_unlock_kick(struct sim_socket *s, unsigned long flags, bool kick)
	__releases(&s->lock)
{
	if (kick && !READ_ONCE(sim_pmi_stopping) && sim_model->pmi_wanted(s))
		irq_work_queue(&s->pmi_work);
	raw_spin_unlock(&s->lock);
	this_cpu_write(sim_in_lock, false);
	local_irq_restore(flags);
}

/**
 * sim_unlock() - release a package's lock taken by sim_lock()
 * @s: the package
 * @flags: IRQ state sim_lock() saved
 *
 * If the model says the package needs it (a freeze pending, a PMI owed,
 * a write that may have moved the next carry of a clock-driven counter),
 * its irq_work is queued (again): it (re)arms the timer as sim time now
 * stands.
 */
void sim_unlock(struct sim_socket *s, unsigned long flags)
	__releases(&s->lock)
{
	sim_unlock_kick(s, flags, true);
}
