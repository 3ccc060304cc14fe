// SPDX-License-Identifier: GPL-2.0
/*
 * Sim time, for every model: what the registers count by, read in any
 * context the driver reaches the simulator in (NMI included) and moved by
 * tests through debugfs "clock" (debugfs.c), in process context; and the
 * sim time a read of a PCI counter takes (pci_tick), which the model's
 * PCI config accessors add (sim_clock_tick()).
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>

#include "sim.h"

/*
 * Sim time is CLOCK_MONOTONIC plus an offset, or a frozen value. The fast
 * accessor is used because MSR accesses may come from NMI context. Writers
 * are serialised by sim_clock_mutex; readers are lockless: run() publishes
 * the offset before clearing the frozen value.
 */
#define SIM_CLOCK_RUNNING	U64_MAX

static DEFINE_MUTEX(sim_clock_mutex);
static u64 sim_clock_frozen_ns = SIM_CLOCK_RUNNING;
static u64 sim_clock_offset_ns;
/* Time added by accesses themselves (sim_clock_tick()), in any state. */
static atomic64_t sim_clock_ticked_ns = ATOMIC64_INIT(0);

static u64 sim_clock_base(void)
{
	u64 frozen = READ_ONCE(sim_clock_frozen_ns);

	smp_rmb();	/* pairs with smp_wmb() in sim_clock_run() */
	if (frozen != SIM_CLOCK_RUNNING)
		return frozen;
	return ktime_get_mono_fast_ns() + READ_ONCE(sim_clock_offset_ns);
}

/**
 * sim_clock_now() - sim time now
 *
 * Context: any, NMI included; takes no lock.
 * Return: sim time in nanoseconds.
 */
u64 sim_clock_now(void)
{
	return sim_clock_base() + atomic64_read(&sim_clock_ticked_ns);
}

/**
 * sim_clock_tick() - the time an access itself takes
 * @ns: nanoseconds
 *
 * Lockless, for config accessors: moves sim time forward by @ns. Not
 * beyond SIM_TIME_MAX_NS. Any context.
 */
void sim_clock_tick(u64 ns)
{
	if (sim_clock_now() + ns <= SIM_TIME_MAX_NS)
		atomic64_add(ns, &sim_clock_ticked_ns);
}

/**
 * sim_clock_frozen() - is sim time frozen
 *
 * Context: any, NMI included.
 * Return: true if sim time only moves when told (debugfs "clock").
 */
bool sim_clock_frozen(void)
{
	return READ_ONCE(sim_clock_frozen_ns) != SIM_CLOCK_RUNNING;
}

/**
 * sim_clock_freeze() - stop sim time where it is
 *
 * Context: process.
 */
void sim_clock_freeze(void)
{
	mutex_lock(&sim_clock_mutex);
	if (!sim_clock_frozen())
		WRITE_ONCE(sim_clock_frozen_ns, sim_clock_base());
	mutex_unlock(&sim_clock_mutex);
}

/**
 * sim_clock_run() - let sim time run again, on from where it stopped
 *
 * Context: process.
 */
void sim_clock_run(void)
{
	u64 frozen;

	mutex_lock(&sim_clock_mutex);
	frozen = READ_ONCE(sim_clock_frozen_ns);
	if (frozen != SIM_CLOCK_RUNNING) {
		WRITE_ONCE(sim_clock_offset_ns,
			   frozen - ktime_get_mono_fast_ns());
		smp_wmb();	/* offset before the running state */
		WRITE_ONCE(sim_clock_frozen_ns, SIM_CLOCK_RUNNING);
	}
	mutex_unlock(&sim_clock_mutex);
}

/**
 * sim_clock_advance() - move sim time forward, frozen or running
 * @ns: nanoseconds
 *
 * Moves sim time forward by @ns; -ERANGE beyond SIM_TIME_MAX_NS.
 *
 * Context: process.
 * Return: 0 or -ERANGE.
 */
int sim_clock_advance(u64 ns)
{
	int ret = 0;
	u64 now;

	mutex_lock(&sim_clock_mutex);
	now = sim_clock_now();
	if (ns > SIM_TIME_MAX_NS || now + ns > SIM_TIME_MAX_NS)
		ret = -ERANGE;
	else if (sim_clock_frozen())
		WRITE_ONCE(sim_clock_frozen_ns, sim_clock_base() + ns);
	else
		WRITE_ONCE(sim_clock_offset_ns, sim_clock_offset_ns + ns);
	mutex_unlock(&sim_clock_mutex);
	return ret;
}

/* Sim nanoseconds each counter read takes (debugfs "clock"). */
static u64 sim_pci_tick_ns;

/**
 * sim_pci_set_tick() - let each read of a PCI counter dword advance sim time
 * @ns: nanoseconds per read, 0 to stop
 *
 * With the sim clock frozen this makes the time between a driver's
 * accesses, and so a carry between the two halves of a counter read,
 * exactly reproducible.
 */
void sim_pci_set_tick(u64 ns)
{
	WRITE_ONCE(sim_pci_tick_ns, ns);
}

/**
 * sim_pci_get_tick() - the sim time each read of a PCI counter dword takes
 *
 * Context: any, NMI included.
 * Return: nanoseconds per read, 0 for none (sim_pci_set_tick()).
 */
u64 sim_pci_get_tick(void)
{
	return READ_ONCE(sim_pci_tick_ns);
}
