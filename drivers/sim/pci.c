// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI side of the simulator: one root bus per package on a host bridge
 * of our own, carrying only the functions the driver uses to discover the
 * uncore (1.6): the UBox node-ID function and PCU.3 with CAPID4/CAPID5.
 *
 * The devices are real struct pci_dev, reached through the ordinary config
 * accessors, so the driver finds them exactly as on hardware: by device ID
 * and by bus number, never by assuming bus order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/ioport.h>
#include <linux/list.h>
#include <linux/numa.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <asm/pci.h>
#include <asm/unaligned.h>

#include "sim.h"

/* Segments >= 0x10000 cannot clash with ACPI (MCFG segments are 16-bit). */
#define SIM_PCI_DOMAIN_MIN	0x10000
#define SIM_PCI_CFG_SIZE	PCI_CFG_SPACE_EXP_SIZE
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

enum {
	SIM_PCI_FN_UBOX,
	SIM_PCI_FN_PCU3,
	SIM_PCI_NR_FNS,
};

struct sim_pci_fn {
	unsigned int devfn;
	u8 cfg[SIM_PCI_CFG_SIZE];
};

struct sim_pci_host {
	struct pci_sysdata sd;
	struct resource busn;
	struct pci_bus *bus;
	struct sim_pci_fn fn[SIM_PCI_NR_FNS];
};

static struct sim_pci_host *sim_pci_hosts[SIM_MAX_PKGS];

static struct sim_pci_fn *sim_pci_find(struct pci_bus *bus,
				       unsigned int devfn)
{
	struct sim_pci_host *host = container_of(bus->sysdata,
						 struct sim_pci_host, sd);
	unsigned int i;

	for (i = 0; i < SIM_PCI_NR_FNS; i++)
		if (host->fn[i].devfn == devfn)
			return &host->fn[i];
	return NULL;
}

static int sim_pci_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	struct sim_pci_fn *fn = sim_pci_find(bus, devfn);

	if (!fn || where < 0 || where + size > SIM_PCI_CFG_SIZE) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}
	switch (size) {
	case 1:
		*val = fn->cfg[where];
		break;
	case 2:
		*val = get_unaligned_le16(&fn->cfg[where]);
		break;
	default:
		*val = get_unaligned_le32(&fn->cfg[where]);
		break;
	}
	return PCIBIOS_SUCCESSFUL;
}

/* Every modelled register is read-only; BAR sizing writes read back 0. */
static int sim_pci_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	if (!sim_pci_find(bus, devfn))
		return PCIBIOS_DEVICE_NOT_FOUND;
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops sim_pci_ops = {
	.read	= sim_pci_read,
	.write	= sim_pci_write,
};

static void sim_pci_fn_init(struct sim_pci_fn *fn, unsigned int devfn,
			    u16 device)
{
	u8 *cfg = fn->cfg;

	fn->devfn = devfn;
	put_unaligned_le16(PCI_VENDOR_ID_INTEL, &cfg[PCI_VENDOR_ID]);
	put_unaligned_le16(device, &cfg[PCI_DEVICE_ID]);
	put_unaligned_le16(PCI_STATUS_CAP_LIST, &cfg[PCI_STATUS]);
	put_unaligned_le32(SIM_PCI_CLASS << 8, &cfg[PCI_CLASS_REVISION]);
	cfg[PCI_HEADER_TYPE] = PCI_HEADER_TYPE_NORMAL;
	cfg[PCI_CAPABILITY_LIST] = SIM_PCI_EXP_CAP;
	cfg[SIM_PCI_EXP_CAP + PCI_CAP_LIST_ID] = PCI_CAP_ID_EXP;
	put_unaligned_le16(FIELD_PREP(PCI_EXP_FLAGS_VERS, 1) |
			   FIELD_PREP(PCI_EXP_FLAGS_TYPE, PCI_EXP_TYPE_RC_END),
			   &cfg[SIM_PCI_EXP_CAP + PCI_EXP_FLAGS]);
}

static void sim_pci_fill(struct sim_pci_host *host, unsigned int p)
{
	struct sim_pci_fn *ubox = &host->fn[SIM_PCI_FN_UBOX];
	struct sim_pci_fn *pcu3 = &host->fn[SIM_PCI_FN_PCU3];
	u32 map = 0;
	unsigned int i;

	for (i = 0; i < sim_nr_pkgs; i++)
		map |= sim_sockets[i].pkg.nodeid << (3 * i);

	sim_pci_fn_init(ubox, SIM_UBOX_DEVFN, SIM_UBOX_DID);
	put_unaligned_le32(sim_sockets[p].pkg.nodeid,
			   &ubox->cfg[SIM_UBOX_NODEID]);
	put_unaligned_le32(map, &ubox->cfg[SIM_UBOX_NODEMAP]);

	sim_pci_fn_init(pcu3, SIM_PCU3_DEVFN, SIM_PCU3_DID);
	put_unaligned_le32(sim_sockets[p].pkg.capid4,
			   &pcu3->cfg[SIM_PCU3_CAPID4]);
	put_unaligned_le32(sim_sockets[p].pkg.capid5,
			   &pcu3->cfg[SIM_PCU3_CAPID5]);
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
	struct sim_pci_host *host;
	LIST_HEAD(resources);
	unsigned int i;

	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host)
		return -ENOMEM;
	host->sd.domain = domain;
	host->sd.node = NUMA_NO_NODE;
	host->busn = (struct resource)DEFINE_RES_NAMED(busnr, 1, KBUILD_MODNAME,
						       IORESOURCE_BUS);
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
	for (i = 0; i < SIM_PCI_NR_FNS; i++)
		if (!pci_scan_single_device(host->bus, host->fn[i].devfn))
			pr_warn("pkg %u: no device at devfn %#x\n", p,
				host->fn[i].devfn);
	pci_bus_add_devices(host->bus);
	return 0;
}

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
