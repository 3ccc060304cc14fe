// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the Broadwell-EP/EX model's glue. Its module parameters
 * (what each package is made of), its accessors for the MSR seam, which
 * take the package lock and may run in NMI context, what PMI delivery
 * (pmi.c) and the box faults (fault.c) ask of the model, and its setup:
 * the register model (bdx_pkg.c and the files below it), PMI delivery,
 * the PCI host bridge (bdx_pcihost.c) and its debugfs files
 * (bdx_debugfs.c); the audit. Setup and the debugfs hooks run in process
 * context, the accessors and PMI hooks in any.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/processor.h>

#include "sim.h"
#include "bdx.h"

/* Width of GLOBAL_CTL.pmi_core_sel (Table 2-2). */
#define SIM_BDX_PMI_CORES	18
/* Shortest wait for a clock-driven carry (see sim_bdx_pmi_due()). */
#define SIM_CARRY_MIN_NS	1000

/* An unsigned long: the slow guests' tests hold a freeze back 8 s. */
static unsigned long freeze_delay_ns = 1000;
module_param(freeze_delay_ns, ulong, 0644);
MODULE_PARM_DESC(freeze_delay_ns,
		 "Sim ns from an overflow message to the global freeze (default 1000)");

static unsigned int uclk_khz = 2000000;
module_param(uclk_khz, uint, 0444);
MODULE_PARM_DESC(uclk_khz, "Uncore clock in kHz (default 2000000)");

/* Different, non-contiguous CBo sets per package, all with CBo 3. */
static unsigned int capid5[SIM_MAX_PKGS] = {
	0x000f0f, 0x003c3a, 0x0f00f8, 0xa5a5a9,
	0x00ffff, 0xffffff, 0x000008, 0x5a5a5a,
};

static int capid5_n;
module_param_array(capid5, uint, &capid5_n, 0444);
MODULE_PARM_DESC(capid5, "CAPID5 per package; bits 23:0 = CBos present");

/*
 * CAPID4[7:6]: 01 = 4 SBos and 2 QPI links on the first two packages; on
 * bigger machines also 10 (4 SBos, 3 links: QPI port 2 and R3QPI link 2)
 * and 00 (no SBo, 2 links), so every encoding is exercised.
 */
static unsigned int capid4[SIM_MAX_PKGS] = {
	0x40, 0x40, 0x80, 0x00, 0x40, 0x80, 0x40, 0x40,
};

static int capid4_n;
module_param_array(capid4, uint, &capid4_n, 0444);
MODULE_PARM_DESC(capid4, "CAPID4 per package; bits 7:6 = SBo/QPI config");

/*
 * iMC channels per package (bit n: iMC n / 4, channel n % 4). By default
 * package 1 lacks channels, as a part with unpopulated channels may.
 */
static unsigned int imc_mask[SIM_MAX_PKGS] = {
	0xff, 0x33, 0xff, 0x0f, 0xff, 0x11, 0xff, 0xf0,
};

static int imc_mask_n;
module_param_array(imc_mask, uint, &imc_mask_n, 0444);
MODULE_PARM_DESC(imc_mask, "iMC channels present per package, bits 7:0");

/* DDR4-2133: the DRAM clock is half the transfer rate (2.5). */
static unsigned int dclk_khz = 1066666;
module_param(dclk_khz, uint, 0444);
MODULE_PARM_DESC(dclk_khz, "DRAM clock in kHz (default 1066666)");

static int nodeid[SIM_MAX_PKGS] = {
	-1, -1, -1, -1, -1, -1, -1, -1,
};

static int nodeid_n;
module_param_array(nodeid, int, &nodeid_n, 0444);
MODULE_PARM_DESC(nodeid,
		 "Node ID of each package, 0-7 (default: reversed order)");

/* sim_pkg_next_carry() as last asked, per package; U64_MAX for none. */
static u64 sim_bdx_carry_at[SIM_MAX_PKGS];

/* Accesses address the package of the calling CPU (msr_backend.h). */
static struct sim_socket *sim_this_socket(void)
{
	int pkg = sim_this_pkg();

	return pkg >= 0 ? &sim_sockets[pkg] : NULL;
}

/*
 * May run in NMI context (the driver's PMI handler). -EBUSY: an NMI
 * interrupted this CPU inside the simulator (see sim_nmi_busy()).
 */
static int sim_bdx_access(u32 msr, u64 *val, bool write)
{
	struct sim_socket *s = sim_this_socket();
	unsigned long flags;
	u64 now;
	int ret;

	if (!write)
		*val = 0;
	if (!s)
		return -EIO;
	if (sim_nmi_busy(s))
		return -EBUSY;
	now = sim_clock_now();
	sim_lock(s, &flags);
	sim_fault_msr_locked(s->id, msr);
	if (write)
		ret = sim_msr_write(sim_bdx_pkg(s), now, msr, *val);
	else
		ret = sim_msr_read(sim_bdx_pkg(s), now, msr, val);
	sim_unlock(s, flags);
	return ret;
}

/* Tests may change the parameter at run time: taken at every lock. */
static void sim_bdx_locked(struct sim_socket *s)
{
	sim_bdx_pkg(s)->freeze_delay_ns = READ_ONCE(freeze_delay_ns);
}

/*
 * The package has a freeze pending or a PMI owed, or a write may have
 * moved the next carry of a clock-driven counter.
 */
static bool sim_bdx_pmi_wanted(const struct sim_socket *s)
{
	const struct sim_pkg *pkg = sim_bdx_pkg(s);

	return pkg->freeze_pending || pkg->pmi_pending || pkg->carry_check;
}

/*
 * When sim time reaches the pending freeze: at once if it already has, if
 * the sim clock is frozen (only the timer can then apply the freeze), or
 * if only a PMI is owed. With nothing pending, the next carry of a
 * clock-driven counter with ov_en, if any: nothing else would bring the
 * model to that time.
 */
static u64 sim_bdx_pmi_due(struct sim_socket *s, u64 now)
{
	struct sim_pkg *pkg = sim_bdx_pkg(s);
	u64 *carry_at = &sim_bdx_carry_at[s->id];

	if (pkg->carry_check) {
		pkg->carry_check = false;
		sim_pkg_advance(pkg, now);
		*carry_at = sim_clock_frozen() ? U64_MAX :
			    sim_pkg_next_carry(pkg);
	}
	if (pkg->freeze_pending)
		return sim_clock_frozen() ? now : pkg->freeze_at;
	if (pkg->pmi_pending)
		return now;
	if (*carry_at == U64_MAX)
		return U64_MAX;
	/* At least 1 us: a carry found already past is a model bug. */
	return max(*carry_at, now + SIM_CARRY_MIN_NS);
}

/*
 * Sim time has reached the pending freeze, or the sim clock is frozen, or
 * a clock-driven counter's carry is due. The last only brings the model
 * to now, which finds the carry and asks for a freeze; the PMI work then
 * times that freeze and the next carry.
 */
static bool sim_bdx_pmi_take(struct sim_socket *s, u64 now, u32 *cores,
			     bool *wake)
{
	struct sim_pkg *pkg = sim_bdx_pkg(s);
	bool pmi = false;

	if (pkg->pmi_pending || (pkg->freeze_pending &&
				 (sim_clock_frozen() || pkg->freeze_at <= now)))
		pmi = sim_pkg_take_pmi(pkg, now, cores, wake);
	else
		sim_pkg_advance(pkg, now);
	pkg->carry_check = true;
	return pmi;
}

/* After a change of the sim clock: re-time every pending freeze. */
static void sim_bdx_clock_moved(void)
{
	unsigned long flags;
	unsigned int p;

	for (p = 0; p < sim_nr_pkgs; p++) {
		sim_lock(&sim_sockets[p], &flags);
		sim_bdx_pkgs[p].carry_check = true;
		sim_unlock(&sim_sockets[p], flags);
	}
}

/* Node IDs are 3-bit fields of the UBox mapping register (1.6.1). */
static int sim_check_nodeids(void)
{
	unsigned long seen = 0;
	unsigned int p;

	for (p = 0; p < sim_nr_pkgs; p++) {
		if (nodeid[p] < 0)
			nodeid[p] = sim_nr_pkgs - 1 - p;
		if (nodeid[p] > 7 || __test_and_set_bit(nodeid[p], &seen)) {
			pr_err("nodeid: need distinct values 0-7\n");
			return -EINVAL;
		}
	}
	return 0;
}

static int sim_bdx_init(u64 now)
{
	unsigned int p;
	int ret;

	if (!uclk_khz || uclk_khz > SIM_MAX_CLK_HZ / 1000 ||
	    !dclk_khz || dclk_khz > SIM_MAX_CLK_HZ / 1000) {
		pr_err("uclk_khz or dclk_khz out of range\n");
		return -EINVAL;
	}
	ret = sim_check_nodeids();
	if (ret)
		return ret;

	for (p = 0; p < sim_nr_pkgs; p++) {
		struct sim_pkg_cfg cfg = {
			.nodeid = nodeid[p],
			.capid4 = capid4[p],
			.capid5 = capid5[p] & GENMASK(SIM_NR_CBO - 1, 0),
			.imc_mask = imc_mask[p],
			.uclk_hz = (u64)uclk_khz * 1000,
			.dclk_hz = (u64)dclk_khz * 1000,
		};

		sim_pkg_init(&sim_bdx_pkgs[p], p, &cfg, now);
		sim_bdx_carry_at[p] = U64_MAX;
	}

	ret = sim_pmi_init();
	if (ret)
		return ret;
	ret = sim_pci_init();
	if (ret) {
		sim_pmi_exit();
		return ret;
	}
	pr_info("%u packages, UCLK %u kHz\n", sim_nr_pkgs, uclk_khz);
	return 0;
}

static void sim_bdx_exit(void)
{
	sim_pci_exit();
	sim_pmi_exit();
}

/* Intel family 6 model 4Fh, the CPUID the driver matches too. */
static bool sim_bdx_match(void)
{
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 &&
	       boot_cpu_data.x86_model == 0x4f;
}

/* ---- faults that name a box ("gone", "stop"; fault.c) -------------------- */

static const char *sim_bdx_box_name(unsigned int type)
{
	return sim_box_name(type);
}

static int sim_bdx_box_count(unsigned int type)
{
	return sim_box_count(type);
}

static bool sim_bdx_box_is_pci(unsigned int type)
{
	return sim_box_is_pci(type);
}

/* &sim_box_faults.stop: the box's flag, under its package's lock. */
static void sim_bdx_box_stop(struct sim_socket *s, unsigned int type,
			     unsigned int idx, bool on)
{
	struct sim_box *box;

	/* Counts up to now were made with the old setting. */
	sim_pkg_advance(sim_bdx_pkg(s), sim_clock_now());
	box = sim_pkg_box(sim_bdx_pkg(s), type, idx);
	if (box)
		box->stopped = on;
}

static const struct sim_box_faults sim_bdx_box_faults = {
	.nr_types	= SIM_NR_BOX_TYPES,
	.name		= sim_bdx_box_name,
	.count		= sim_bdx_box_count,
	.is_pci		= sim_bdx_box_is_pci,
	.stop		= sim_bdx_box_stop,
};

/* ---- audit: what the driver left behind ---------------------------------- */

/* Names of the filter-like registers in sim_box.filter, per kind. */
static const char * const sim_cbo_filters[] = { "filter0", "filter1" };
static const char * const sim_pcu_filters[] = { "filter" };
static const char * const sim_ha_filters[] = {
	"addrmatch0", "addrmatch1", "opcodematch",
};

static const char * const sim_qpi_filters[] = {
	[SIM_QPI_RX_MATCH0] = "rx_match0", [SIM_QPI_RX_MATCH1] = "rx_match1",
	[SIM_QPI_RX_MASK0] = "rx_mask0", [SIM_QPI_RX_MASK1] = "rx_mask1",
	[SIM_QPI_TX_MATCH0] = "tx_match0", [SIM_QPI_TX_MATCH1] = "tx_match1",
	[SIM_QPI_TX_MASK0] = "tx_mask0", [SIM_QPI_TX_MASK1] = "tx_mask1",
};

/* A control with en or ov_en (bits 22 and 20, the fixed ones' too). */
static unsigned int sim_audit_ctl(struct seq_file *m, const struct sim_pkg *pkg,
				  const char *box, const char *ctr, u32 ctl)
{
	if (!(ctl & (SIM_CTL_EN | SIM_CTL_OV_EN)))
		return 0;
	seq_printf(m, "pkg%u %s %s ctl=0x%08x%s%s\n", pkg->id, box, ctr, ctl,
		   ctl & SIM_CTL_EN ? " enabled" : "",
		   ctl & SIM_CTL_OV_EN ? " ov_en" : "");
	return 1;
}

static unsigned int sim_audit_box(struct seq_file *m, const struct sim_pkg *pkg,
				  const struct sim_box *box)
{
	const char * const *filters = NULL;
	unsigned int i, n = 0, nf = 0;
	char name[12], ctr[8];

	if (!box->present)
		return 0;
	if (sim_box_count(box->type) > 1)
		snprintf(name, sizeof(name), "%s%u", sim_box_name(box->type),
			 box->idx);
	else
		strscpy(name, sim_box_name(box->type), sizeof(name));
	for (i = 0; i < sim_box_nr_ctrs(box); i++) {
		snprintf(ctr, sizeof(ctr), "ctr%u", i);
		n += sim_audit_ctl(m, pkg, name, ctr, box->ctr[i].ctl);
	}
	if (box->type == SIM_IMC)
		n += sim_audit_ctl(m, pkg, name, "fixed", box->fixed.ctl);

	switch (box->type) {
	case SIM_CBO:
		filters = sim_cbo_filters;
		nf = ARRAY_SIZE(sim_cbo_filters);
		break;
	case SIM_PCU:
		filters = sim_pcu_filters;
		nf = ARRAY_SIZE(sim_pcu_filters);
		break;
	case SIM_HA:
		filters = sim_ha_filters;
		nf = ARRAY_SIZE(sim_ha_filters);
		break;
	case SIM_QPI:
		filters = sim_qpi_filters;
		nf = ARRAY_SIZE(sim_qpi_filters);
		break;
	default:
		break;
	}
	for (i = 0; i < nf; i++) {
		if (!box->filter[i])
			continue;
		seq_printf(m, "pkg%u %s %s=0x%08x\n", pkg->id, name, filters[i],
			   box->filter[i]);
		n++;
	}
	return n;
}

/*
 * Every box of @pkg; and an overflow nobody handled: a global status bit,
 * a freeze pending or in effect, a PMI owed. The PMI routing in
 * GLOBAL_CTL is not a leftover: the driver keeps it once set.
 */
static unsigned int sim_audit_pkg(struct seq_file *m, const struct sim_pkg *pkg)
{
	unsigned int i, n = 0;

	if (pkg->global_status || pkg->global_frozen || pkg->freeze_pending ||
	    pkg->pmi_pending) {
		seq_printf(m, "pkg%u global status=0x%09llx frozen=%d freeze_pending=%d pmi_owed=%d\n",
			   pkg->id, pkg->global_status, pkg->global_frozen,
			   pkg->freeze_pending, pkg->pmi_pending);
		n++;
	}
	n += sim_audit_ctl(m, pkg, "ubox", "fixed", pkg->fixed.ctl);
	n += sim_audit_box(m, pkg, &pkg->ubox);
	n += sim_audit_box(m, pkg, &pkg->pcu);
	n += sim_audit_box(m, pkg, &pkg->irp);
	n += sim_audit_box(m, pkg, &pkg->r2pcie);
	for (i = 0; i < SIM_NR_CBO; i++)
		n += sim_audit_box(m, pkg, &pkg->cbo[i]);
	for (i = 0; i < SIM_NR_SBO; i++)
		n += sim_audit_box(m, pkg, &pkg->sbo[i]);
	for (i = 0; i < SIM_NR_HA; i++)
		n += sim_audit_box(m, pkg, &pkg->ha[i]);
	for (i = 0; i < SIM_NR_IMC; i++)
		n += sim_audit_box(m, pkg, &pkg->imc[i]);
	for (i = 0; i < SIM_NR_QPI; i++)
		n += sim_audit_box(m, pkg, &pkg->qpi[i]);
	for (i = 0; i < SIM_NR_R3QPI; i++)
		n += sim_audit_box(m, pkg, &pkg->r3qpi[i]);
	return n;
}

/*
 * Reserved-bit writes count BOX_CTL writes without bits 17:16 too; faults
 * are MSR accesses the part would #GP on.
 */
static void sim_bdx_audit_pkg(struct seq_file *m, unsigned int p, void *snap,
			      void *arg)
{
	const struct sim_pkg *pkg = snap;
	struct sim_audit *a = arg;

	a->leftovers += sim_audit_pkg(m, pkg);
	a->rsvd_writes += pkg->stats.rsvd_writes + pkg->stats.boxctl_no_must1;
	a->faults += pkg->stats.msr_faults;
}

static int sim_bdx_audit(struct seq_file *m)
{
	struct sim_audit a = { };

	return sim_each_snapshot(m, sizeof(struct sim_pkg), sim_bdx_snapshot,
				 sim_bdx_audit_pkg, &a) ?: sim_audit_end(m, &a);
}

const struct sim_model sim_bdx_model = {
	.part		= "bdx",
	.name		= "Xeon E5/E7 v4 (Broadwell-EP/EX)",
	.max_pkgs	= SIM_MAX_PKGS,
	.match		= sim_bdx_match,
	.init		= sim_bdx_init,
	.exit		= sim_bdx_exit,
	.access		= sim_bdx_access,
	.debugfs_init	= sim_bdx_debugfs_init,
	.reset_stats	= sim_bdx_reset_stats,
	.clock_moved	= sim_bdx_clock_moved,
	.pmi_cores	= SIM_BDX_PMI_CORES,
	.locked		= sim_bdx_locked,
	.pmi_wanted	= sim_bdx_pmi_wanted,
	.pmi_due	= sim_bdx_pmi_due,
	.pmi_take	= sim_bdx_pmi_take,
	.audit		= sim_bdx_audit,
	.box_faults	= &sim_bdx_box_faults,
};
