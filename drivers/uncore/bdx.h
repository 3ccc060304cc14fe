/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNCORE_PMU_BDX_H
#define _UNCORE_PMU_BDX_H

/* The node-ID map has eight 3-bit fields (manual 1.6.1): E7 v4 goes to 8. */
#define BDX_MAX_PKGS	8

/*
 * UCLK bounds the poll period of the boxes counting it; the manual gives
 * no maximum, so this is generous.
 */
#define BDX_UCLK_MAX_HZ	3500000000ULL

struct pci_bus;

extern const struct uncore_platform bdx_platform;

/* bdx.c: what discovery found */
int bdx_bus_to_pkg(struct pci_bus *bus);
bool bdx_has_port2(int pkg);

/* bdx_pci.c */
extern const struct uncore_type bdx_ha, bdx_imc, bdx_irp, bdx_qpi,
	bdx_r2pcie, bdx_r3qpi;
extern struct pci_driver bdx_pci_driver;

#endif /* _UNCORE_PMU_BDX_H */
