// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI side of the Broadwell model: one root bus per package on a host
 * bridge of our own, carrying the functions the driver uses to discover the uncore
 * (1.6: the UBox node-ID function, PCU.3 with CAPID4/CAPID5) and the PCI
 * PMON boxes at the manual's device/function numbers and IDs (Table 1-3):
 * HA, iMC channels, IRP, QPI ports and their match/mask functions, R2PCIe
 * and R3QPI links, each only where the package has it.
 *
 * The devices are real struct pci_dev, reached through the ordinary config
 * accessors, so the driver finds them exactly as on hardware: by device ID
 * and by bus number, never by assuming bus order. The accessors run in any
 * context the driver's config accesses do (NMI included) and take the
 * package lock to reach the register model (bdx_pci.c); the bridge is
 * added at load and removed at unload, in process context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/ioport.h>
#include <linux/list.h>
#include <linux/numa.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <asm/pci.h>

#include "sim.h"
#include "bdx.h"

/* Segments >= 0x10000 cannot clash with ACPI (MCFG segments are 16-bit). */
#define SIM_PCI_DOMAIN_MIN	0x10000
#define SIM_PCI_CFG_SIZE	PCI_CFG_SPACE_EXP_SIZE
/* The plain header and the discovery registers; PMON ones are modelled. */
#define SIM_PCI_HDR_SIZE	PCI_CFG_SPACE_SIZE
#define SIM_PCI_CLASS		0x088000	/* other system peripheral */
/* A PCIe capability makes the core use 4 KiB of config space. */
#define SIM_PCI_EXP_CAP		0x60

/*
 * The manual gives the UBox node-ID device only by its ID (1.6.1); D16:F5
 * is our choice, and the driver must find it by ID.
 */
#define SIM_UBOX_DEVFN		PCI_DEVFN(16, 5)
#define SIM_UBOX_DID		0x6f1e
#define SIM_UBOX_NODEID		0x40	/* bits 2:0: local node ID */
#define SIM_UBOX_NODEMAP	0x54	/* bits 3i+2:3i: node ID of package i */
/* CAPID4/CAPID5 live at D30:F3 (1.6); 0x6fc0 is PCU.3. */
#define SIM_PCU3_DEVFN		PCI_DEVFN(30, 3)
#define SIM_PCU3_DID		0x6fc0
#define SIM_PCU3_CAPID4		0x94
#define SIM_PCU3_CAPID5		0x98

/**
 * struct sim_pci_dev_desc - a PMON function of the part (Table 1-3)
 * @type: the box it belongs to
 * @idx: box instance
 * @fn: SIM_PCI_FN_PMON, or SIM_PCI_FN_QPI_MM for a QPI match/mask function
 * @devfn: device and function number
 * @device: PCI device ID
 */
struct sim_pci_dev_desc {
	enum sim_box_type type;
	u8 idx;
	u8 fn;
	u8 devfn;
	u16 device;
};

/* iMC channels: iMC0 channels 0-3, iMC1 channels 0-3 (2.5). */
static const struct sim_pci_dev_desc sim_pci_devs[] = {
	{ SIM_HA,     0, SIM_PCI_FN_PMON,   PCI_DEVFN(18, 1), 0x6f30 },
	{ SIM_HA,     1, SIM_PCI_FN_PMON,   PCI_DEVFN(18, 5), 0x6f38 },
	{ SIM_IMC,    0, SIM_PCI_FN_PMON,   PCI_DEVFN(20, 0), 0x6fb4 },
	{ SIM_IMC,    1, SIM_PCI_FN_PMON,   PCI_DEVFN(20, 1), 0x6fb5 },
	{ SIM_IMC,    2, SIM_PCI_FN_PMON,   PCI_DEVFN(21, 0), 0x6fb0 },
	{ SIM_IMC,    3, SIM_PCI_FN_PMON,   PCI_DEVFN(21, 1), 0x6fb1 },
	{ SIM_IMC,    4, SIM_PCI_FN_PMON,   PCI_DEVFN(23, 0), 0x6fd4 },
	{ SIM_IMC,    5, SIM_PCI_FN_PMON,   PCI_DEVFN(23, 1), 0x6fd5 },
	{ SIM_IMC,    6, SIM_PCI_FN_PMON,   PCI_DEVFN(24, 0), 0x6fd0 },
	{ SIM_IMC,    7, SIM_PCI_FN_PMON,   PCI_DEVFN(24, 1), 0x6fd1 },
	{ SIM_IRP,    0, SIM_PCI_FN_PMON,   PCI_DEVFN(5, 6),  0x6f39 },
	{ SIM_QPI,    0, SIM_PCI_FN_PMON,   PCI_DEVFN(8, 2),  0x6f32 },
	{ SIM_QPI,    1, SIM_PCI_FN_PMON,   PCI_DEVFN(9, 2),  0x6f33 },
	{ SIM_QPI,    2, SIM_PCI_FN_PMON,   PCI_DEVFN(10, 2), 0x6f3a },
	{ SIM_QPI,    0, SIM_PCI_FN_QPI_MM, PCI_DEVFN(8, 6),  0x6f86 },
	{ SIM_QPI,    1, SIM_PCI_FN_QPI_MM, PCI_DEVFN(9, 6),  0x6f96 },
	{ SIM_QPI,    2, SIM_PCI_FN_QPI_MM, PCI_DEVFN(10, 6), 0x6f46 },
	{ SIM_R2PCIE, 0, SIM_PCI_FN_PMON,   PCI_DEVFN(16, 1), 0x6f34 },
	{ SIM_R3QPI,  0, SIM_PCI_FN_PMON,   PCI_DEVFN(11, 1), 0x6f36 },
	{ SIM_R3QPI,  1, SIM_PCI_FN_PMON,   PCI_DEVFN(11, 2), 0x6f37 },
	{ SIM_R3QPI,  2, SIM_PCI_FN_PMON,   PCI_DEVFN(11, 5), 0x6f3e },
};

/* Discovery functions, then one per sim_pci_devs[] entry at most. */
#define SIM_PCI_MAX_FNS		(2 + ARRAY_SIZE(sim_pci_devs))

/**
 * struct sim_pci_fn - one function on a package's bus
 * @devfn: device and function number
 * @box: the PMON box behind it, NULL for the discovery functions
 * @fn: SIM_PCI_FN_PMON or SIM_PCI_FN_QPI_MM
 * @hdr: config header and discovery registers (offsets below 0x100)
 */
struct sim_pci_fn {
	unsigned int devfn;
	struct sim_box *box;
	int fn;
	u8 hdr[SIM_PCI_HDR_SIZE];
};

struct sim_pci_host {
	struct pci_sysdata sd;
	struct resource busn;
	struct pci_bus *bus;
	unsigned int pkg;
	unsigned int nr_fns;
	struct sim_pci_fn fn[SIM_PCI_MAX_FNS];
};

static struct sim_pci_host *sim_pci_hosts[SIM_MAX_PKGS];

static struct sim_pci_host *sim_pci_host(struct pci_bus *bus)
{
	return container_of(bus->sysdata, struct sim_pci_host, sd);
}

static struct sim_pci_fn *sim_pci_find(struct pci_bus *bus,
				       unsigned int devfn)
{
	struct sim_pci_host *host = sim_pci_host(bus);
	unsigned int i;

	for (i = 0; i < host->nr_fns; i++)
		if (host->fn[i].devfn == devfn)
			return &host->fn[i];
	return NULL;
}

/* Dword access to a modelled PMON register; -ENOENT if @off is not one. */
static int sim_pci_model(struct sim_pci_host *host, struct sim_pci_fn *fn,
			 unsigned int off, bool write, u32 *val)
{
	struct sim_socket *s = &sim_sockets[host->pkg];
	unsigned long flags;
	u64 tick = sim_pci_get_tick();
	u64 now;
	int ret;

	if (!fn->box)
		return -ENOENT;
	if (sim_nmi_busy(s))
		return -EBUSY;
	sim_lock(s, &flags);
	sim_fault_pci_nmi(host->pkg, fn->box->type, fn->box->idx);
	if (tick && !write && sim_pci_reg_is_ctr(fn->box, fn->fn, off))
		sim_clock_tick(tick);
	now = sim_clock_now();
	if (write)
		ret = sim_pci_reg_write(sim_bdx_pkg(s), now, fn->box, fn->fn,
					off, *val);
	else
		ret = sim_pci_reg_read(sim_bdx_pkg(s), now, fn->box, fn->fn,
				       off, val);
	sim_unlock(s, flags);
	return ret;
}

/*
 * The header's little-endian fields, @size bytes at @where (config space
 * is little-endian, PCI 3.0 6.1). Copied byte-wise: a 2-byte field may sit
 * at any even offset, and <asm/unaligned.h> became <linux/unaligned.h> in
 * Linux 6.12, with no header of the same name in both.
 */
static u32 sim_cfg_get(const u8 *cfg, int where, int size)
{
	__le32 v = 0;

	memcpy(&v, &cfg[where], size);
	return le32_to_cpu(v);
}

static void sim_cfg_put(u8 *cfg, int where, int size, u32 val)
{
	__le32 v = cpu_to_le32(val);

	memcpy(&cfg[where], &v, size);
}

/* A "gone" fault (fault.c) on the box behind @fn, if there is one. */
static bool sim_pci_gone(struct pci_bus *bus, const struct sim_pci_fn *fn)
{
	return fn->box && sim_fault_pci_gone(sim_pci_host(bus)->pkg,
					     fn->box->type, fn->box->idx);
}

static int sim_pci_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	struct sim_pci_fn *fn = sim_pci_find(bus, devfn);
	unsigned int shift = 8 * (where & 3);
	u32 dw;
	int ret;

	if (!fn || where < 0 || where + size > SIM_PCI_CFG_SIZE) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	/* A function gone from under the driver answers all ones. */
	if (sim_pci_gone(bus, fn)) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_SUCCESSFUL;
	}
	/* Naturally aligned accesses only: the core never does others. */
	ret = sim_pci_model(sim_pci_host(bus), fn, where & ~3, false, &dw);
	if (!ret) {
		*val = size == 4 ? dw : (dw >> shift) & GENMASK(8 * size - 1, 0);
		return PCIBIOS_SUCCESSFUL;
	}
	/* An NMI inside the simulator on this CPU: a failed read, all 1s. */
	if (ret == -EBUSY) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	if (where + size > SIM_PCI_HDR_SIZE) {
		*val = 0;
		return PCIBIOS_SUCCESSFUL;
	}
	*val = sim_cfg_get(fn->hdr, where, size);
	return PCIBIOS_SUCCESSFUL;
}

/*
 * Dword writes reach the PMON registers; everything else (the core's BAR
 * sizing, command register) is dropped and reads back as before, as is a
 * write refused with -EBUSY (an NMI inside the simulator on this CPU).
 */
static int sim_pci_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	struct sim_pci_fn *fn = sim_pci_find(bus, devfn);

	if (!fn)
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (size == 4 && !sim_pci_gone(bus, fn))
		sim_pci_model(sim_pci_host(bus), fn, where, true, &val);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops sim_pci_ops = {
	.read	= sim_pci_read,
	.write	= sim_pci_write,
};

static struct sim_pci_fn *sim_pci_fn_add(struct sim_pci_host *host,
					 unsigned int devfn, u16 device)
{
	struct sim_pci_fn *fn = &host->fn[host->nr_fns++];
	u8 *cfg = fn->hdr;

	fn->devfn = devfn;
	sim_cfg_put(cfg, PCI_VENDOR_ID, 2, PCI_VENDOR_ID_INTEL);
	sim_cfg_put(cfg, PCI_DEVICE_ID, 2, device);
	sim_cfg_put(cfg, PCI_STATUS, 2, PCI_STATUS_CAP_LIST);
	sim_cfg_put(cfg, PCI_CLASS_REVISION, 4, SIM_PCI_CLASS << 8);
	cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_NORMAL;
	cfg[PCI_CAPABILITY_LIST] = SIM_PCI_EXP_CAP;
	cfg[SIM_PCI_EXP_CAP + PCI_CAP_LIST_ID] = PCI_CAP_ID_EXP;
	sim_cfg_put(cfg, SIM_PCI_EXP_CAP + PCI_EXP_FLAGS, 2,
		    FIELD_PREP(PCI_EXP_FLAGS_VERS, 1) |
		    FIELD_PREP(PCI_EXP_FLAGS_TYPE, PCI_EXP_TYPE_RC_END));
	return fn;
}

static void sim_pci_fill(struct sim_pci_host *host, unsigned int p)
{
	struct sim_pkg *pkg = &sim_bdx_pkgs[p];
	struct sim_pci_fn *ubox, *pcu3, *fn;
	u32 map = 0;
	unsigned int i;

	host->pkg = p;
	for (i = 0; i < sim_nr_pkgs; i++)
		map |= sim_bdx_pkgs[i].nodeid << (3 * i);

	ubox = sim_pci_fn_add(host, SIM_UBOX_DEVFN, SIM_UBOX_DID);
	sim_cfg_put(ubox->hdr, SIM_UBOX_NODEID, 4, pkg->nodeid);
	sim_cfg_put(ubox->hdr, SIM_UBOX_NODEMAP, 4, map);

	pcu3 = sim_pci_fn_add(host, SIM_PCU3_DEVFN, SIM_PCU3_DID);
	sim_cfg_put(pcu3->hdr, SIM_PCU3_CAPID4, 4, pkg->capid4);
	sim_cfg_put(pcu3->hdr, SIM_PCU3_CAPID5, 4, pkg->capid5);

	/* The state of the boxes lives in the package, not in PCI. */
	for (i = 0; i < ARRAY_SIZE(sim_pci_devs); i++) {
		const struct sim_pci_dev_desc *d = &sim_pci_devs[i];
		struct sim_box *box = sim_pkg_box(pkg, d->type, d->idx);

		if (!box || !box->present)
			continue;
		fn = sim_pci_fn_add(host, d->devfn, d->device);
		fn->box = box;
		fn->fn = d->fn;
	}
}

static bool sim_pci_domain_used(int domain)
{
	struct pci_bus *bus = NULL;

	while ((bus = pci_find_next_bus(bus)))
		if (pci_domain_nr(bus) == domain)
			return true;
	return false;
}

/*
 * Bus numbers descend with the package number (0xff, 0x7f for two
 * packages), so a driver assuming bus order gets the wrong package.
 */
static int sim_pci_add_host(unsigned int p, int domain)
{
	u8 busnr = 0xff - p * (0x100 / sim_nr_pkgs);
	struct resource busn = DEFINE_RES_NAMED(busnr, 1, KBUILD_MODNAME,
						IORESOURCE_BUS);
	struct sim_pci_host *host;
	LIST_HEAD(resources);
	unsigned int i;

	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host)
		return -ENOMEM;
	host->sd.domain = domain;
	host->sd.node = NUMA_NO_NODE;
	/*
	 * Copied, not cast from the initialiser: DEFINE_RES_NAMED() is a
	 * braced list in Linux 6.1 and a compound literal in 6.12.
	 */
	host->busn = busn;
	sim_pci_fill(host, p);

	pci_add_resource(&resources, &host->busn);
	host->bus = pci_create_root_bus(NULL, busnr, &sim_pci_ops, &host->sd,
					&resources);
	if (!host->bus) {
		pci_free_resource_list(&resources);
		kfree(host);
		return -ENODEV;
	}
	sim_pci_hosts[p] = host;

	/* Only the modelled functions: no function-0 scan needed. */
	for (i = 0; i < host->nr_fns; i++)
		if (!pci_scan_single_device(host->bus, host->fn[i].devfn))
			pr_warn("pkg %u: no device at devfn %#x\n", p,
				host->fn[i].devfn);
	pci_bus_add_devices(host->bus);
	return 0;
}

/**
 * sim_pci_init() - add the host bridge, a root bus per package
 *
 * Context: at load, from the model's init, once the packages are set up.
 * Return: 0 or an error, with nothing left to undo.
 */
int sim_pci_init(void)
{
	unsigned int p;
	int domain;
	int ret = 0;

	pci_lock_rescan_remove();
	domain = SIM_PCI_DOMAIN_MIN;
	while (sim_pci_domain_used(domain))
		domain++;
	for (p = 0; p < sim_nr_pkgs && !ret; p++)
		ret = sim_pci_add_host(p, domain);
	pci_unlock_rescan_remove();

	if (ret)
		sim_pci_exit();
	else
		pr_info("PCI domain %04x\n", domain);
	return ret;
}

/**
 * sim_pci_exit() - remove every root bus sim_pci_init() added
 *
 * Context: at unload, or when sim_pci_init() fails.
 */
void sim_pci_exit(void)
{
	unsigned int p;

	for (p = 0; p < SIM_MAX_PKGS; p++) {
		struct sim_pci_host *host = sim_pci_hosts[p];
		struct pci_host_bridge *bridge;

		if (!host)
			continue;
		bridge = pci_find_host_bridge(host->bus);
		pci_lock_rescan_remove();
		pci_stop_root_bus(host->bus);
		pci_remove_root_bus(host->bus);
		pci_unlock_rescan_remove();
		/*
		 * pci_remove_root_bus() only deletes the bridge device; the
		 * reference pci_create_root_bus() gave us frees it and its
		 * window list (kmemleak found them on every unload).
		 */
		put_device(&bridge->dev);
		kfree(host);
		sim_pci_hosts[p] = NULL;
	}
}
