// SPDX-License-Identifier: GPL-2.0
/*
 * Register access for uncore_pmu. Every register access of the driver goes
 * through here and is counted per box (debugfs "access"). MSRs reach either
 * the CPU (rdmsrl_safe/wrmsrl_safe) or, in a simulated guest, uncore_sim.ko
 * through the one seam declared in <uncore_pmu/msr_backend.h>. PCI config
 * accesses need no seam: the simulator's boxes are PCI devices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hardirq.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <asm/msr.h>
#include <uncore_pmu/msr_backend.h>

#include "uncore.h"

static int uncore_rdmsr(u32 msr, u64 *val)
{
	return rdmsrl_safe(msr, val);
}

static int uncore_wrmsr(u32 msr, u64 val)
{
	return wrmsrl_safe(msr, val);
}

static const struct uncore_msr_backend uncore_cpu_msr = {
	.name = "cpu",
	.read = uncore_rdmsr,
	.write = uncore_wrmsr,
};

static const struct uncore_msr_backend *uncore_msr = &uncore_cpu_msr;
static const struct uncore_msr_backend *uncore_sim_msr;

/**
 * uncore_access_init() - choose the MSR backend
 * @part: the platform's &uncore_platform.id
 *
 * If the simulator is loaded, its registers stand in for the part's; the
 * module reference taken by symbol_get() keeps it loaded until we go. A
 * simulator of another part would answer with registers of another
 * layout: it is refused.
 *
 * Return: 0, or -ENODEV for a simulator of another part.
 */
int uncore_access_init(const char *part)
{
	const struct uncore_msr_backend *sim;

	sim = symbol_get(uncore_sim_msr_backend);
	if (!sim)
		return 0;
	if (strcmp(sim->part, part)) {
		pr_err("%s models part '%s', this CPU is a '%s': not using it\n",
		       sim->name, sim->part, part);
		symbol_put(uncore_sim_msr_backend);
		return -ENODEV;
	}
	uncore_sim_msr = sim;
	uncore_msr = sim;
	return 0;
}

/** uncore_access_exit() - release the simulator backend, if held */
void uncore_access_exit(void)
{
	if (uncore_sim_msr)
		symbol_put(uncore_sim_msr_backend);
	uncore_sim_msr = NULL;
	uncore_msr = &uncore_cpu_msr;
}

/**
 * uncore_msr_probe() - read an MSR of this CPU's package, uncounted
 * @msr: register
 * @val: where to put the value; 0 on error
 *
 * For a platform's probe, before any box exists. Process context.
 *
 * Return: 0 or -EIO if the access faulted.
 */
int uncore_msr_probe(u32 msr, u64 *val)
{
	int err;

	preempt_disable();
	err = uncore_msr->read(msr, val);
	preempt_enable();
	if (err)
		*val = 0;
	return err;
}

/**
 * uncore_access_backend() - name of the MSR backend in use
 *
 * Return: "cpu" or the simulator's name.
 */
const char *uncore_access_backend(void)
{
	return uncore_msr->name;
}

/**
 * uncore_box_fault() - count a failed access and report the fault's start
 * @box: the box
 * @what: the access ("read of MSR", "config read at")
 * @reg: its register
 *
 * Any context (NMI included: printk defers there). A fault is reported
 * once, until the box has been read and written again without one
 * (uncore_box_sound()): a box that fails on every poll, or only on writes,
 * does not flood the log.
 */
void uncore_box_fault(struct uncore_box *box, const char *what, u32 reg)
{
	if (in_nmi())
		atomic64_inc(&box->stats.nmi_errors);
	else
		box->stats.errors++;
	set_bit(UNCORE_BOX_FAULT, &box->faults);
	set_bit(UNCORE_BOX_RESYNC, &box->faults);
	if (!test_and_set_bit(UNCORE_BOX_REPORTED, &box->faults))
		pr_warn("%s, package %d: %s 0x%x failed; its events keep their counts until it answers again\n",
			box->pmu->name, box->pkg, what, reg);
}

/**
 * uncore_box_answered() - a counter of @box read back sound
 * @box: the box, on its reading CPU (uncore_event_update())
 *
 * The box's counters read again, each from the value it held (what the
 * hardware counted meanwhile is counted then), and the controls of its
 * running events are to be written again, in case an enabling write was
 * lost (uncore_reprogram()). Only counter reads count: a fault of some of
 * the box's registers must not seem to end at every access to the others.
 */
void uncore_box_answered(struct uncore_box *box)
{
	if (unlikely(test_bit(UNCORE_BOX_FAULT, &box->faults)) &&
	    test_and_clear_bit(UNCORE_BOX_FAULT, &box->faults))
		set_bit(UNCORE_BOX_REPROGRAM, &box->faults);
}

/**
 * uncore_box_sound() - a fault's end: the box was reprogrammed without one
 * @box: the box, whose controls were just written again
 */
void uncore_box_sound(struct uncore_box *box)
{
	if (!test_bit(UNCORE_BOX_FAULT, &box->faults) &&
	    test_and_clear_bit(UNCORE_BOX_REPORTED, &box->faults))
		pr_info("%s, package %d: answers again\n", box->pmu->name,
			box->pkg);
}

/*
 * The end of an MSR read in NMI context, the PMI handler's: counted
 * atomically (&struct uncore_access_stats). -EBUSY is the simulator's
 * answer to an NMI that interrupted this CPU inside it, where a read on
 * the part would not wait: no fault of the box, and the status is read
 * again by the next NMI or pass (review pmi-protocol N15).
 */
static int uncore_msr_read_nmi(struct uncore_box *box, u32 msr, u64 *val,
			       int err)
{
	atomic64_inc(&box->stats.nmi_msr_rd);
	if (likely(!err))
		return 0;
	*val = 0;
	if (err != -EBUSY)
		uncore_box_fault(box, "read of MSR", msr);
	return err;
}

/**
 * uncore_msr_read() - read an MSR of @box's package, counted
 * @box: the box the register belongs to (for the access counts)
 * @msr: register
 * @val: where to put the value; 0 on error
 *
 * Must run on a CPU of @box's package with preemption disabled; in NMI
 * context too (uncore_pmi's read_status()).
 *
 * Return: 0, -EIO if the access faulted, or -EBUSY in NMI context if the
 * simulator could not take it there.
 */
int uncore_msr_read(struct uncore_box *box, u32 msr, u64 *val)
{
	int err = uncore_msr->read(msr, val);

	if (unlikely(in_nmi()))
		return uncore_msr_read_nmi(box, msr, val, err);
	box->stats.msr_rd++;
	if (unlikely(err)) {
		uncore_box_fault(box, "read of MSR", msr);
		*val = 0;
	}
	return err;
}

/**
 * uncore_msr_write() - write an MSR of @box's package, counted
 * @box: the box the register belongs to
 * @msr: register
 * @val: value
 *
 * A faulting write is counted in the box's errors and starts a fault
 * (uncore_box_fault()): the box was found present, so the part, or
 * whatever stands between it and us, misbehaves. The controls of the box's
 * running events are written again once it answers.
 *
 * Return: 0 or -EIO if the access faulted.
 */
int uncore_msr_write(struct uncore_box *box, u32 msr, u64 val)
{
	int err = uncore_msr->write(msr, val);

	box->stats.msr_wr++;
	if (unlikely(err))
		uncore_box_fault(box, "write of MSR", msr);
	return err;
}

/**
 * uncore_pci_read() - read a config dword of a PCI box, counted
 * @box: the box the register belongs to
 * @pdev: which of its functions
 * @off: offset
 * @val: where to put the value; 0 on error
 *
 * Config accesses may run on any CPU, in atomic context too. A function
 * gone from under us answers all ones with success: the caller, who knows
 * which bits of the register can be set, tells (uncore_box_fault()).
 *
 * Return: 0 or -EIO.
 */
int uncore_pci_read(struct uncore_box *box, struct pci_dev *pdev, int off,
		    u32 *val)
{
	int err = pci_read_config_dword(pdev, off, val);

	box->stats.pci_rd++;
	if (unlikely(err)) {
		uncore_box_fault(box, "config read at", off);
		*val = 0;
		return -EIO;
	}
	return 0;
}

/**
 * uncore_pci_write() - write a config dword of a PCI box, counted
 * @box: the box the register belongs to
 * @pdev: which of its functions
 * @off: offset
 * @val: value
 */
void uncore_pci_write(struct uncore_box *box, struct pci_dev *pdev, int off,
		      u32 val)
{
	box->stats.pci_wr++;
	if (unlikely(pci_write_config_dword(pdev, off, val)))
		uncore_box_fault(box, "config write at", off);
}
