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

/*
 * U_MSR_PMON_GLOBAL_STATUS (Table 2-3): the bit each box group reports its
 * overflows in. One bit covers both ports of QPI agent 0, all channels of
 * an iMC, R3QPI links 0 and 1; bit 35 ("R3QPI 0 or R3QPI 1") is cleared
 * with either R3QPI group. CBo and SBo have none: they cannot raise a PMI.
 */
#define BDX_GSTS_OV_U_FIXED	BIT_ULL(0)
#define BDX_GSTS_OV_U		BIT_ULL(1)
#define BDX_GSTS_OV_P		BIT_ULL(2)
#define BDX_GSTS_OV_H0		BIT_ULL(21)
#define BDX_GSTS_OV_M0		BIT_ULL(23)
#define BDX_GSTS_OV_Q0		BIT_ULL(25)
#define BDX_GSTS_OV_Q1		BIT_ULL(26)
#define BDX_GSTS_OV_RQ0		BIT_ULL(27)
#define BDX_GSTS_OV_RQ1		BIT_ULL(28)
#define BDX_GSTS_OV_RP		BIT_ULL(29)
#define BDX_GSTS_OV_IRP		BIT_ULL(34)
#define BDX_GSTS_OV_RQ		BIT_ULL(35)

/* Counter control fields (manual 1.4, Table 1-3; each box's CTLn table). */
#define BDX_CTL_EV_SEL	GENMASK_ULL(7, 0)
#define BDX_CTL_UMASK	GENMASK_ULL(15, 8)
#define BDX_CTL_RST	BIT_ULL(17)
#define BDX_CTL_EDGE	BIT_ULL(18)
#define BDX_CTL_TID_EN	BIT_ULL(19)
#define BDX_CTL_OV_EN	BIT_ULL(20)
#define BDX_CTL_EN	BIT_ULL(22)
#define BDX_CTL_INVERT	BIT_ULL(23)
#define BDX_CTL_THRESH8	GENMASK_ULL(31, 24)
#define BDX_CTL_THRESH5	GENMASK_ULL(28, 24)

struct pci_bus;

extern const struct uncore_platform bdx_platform;

/* bdx.c: counter control layouts (manual Table 1-3 and each box's CTLn) */
extern const struct uncore_ctl_layout bdx_ctl, bdx_ctl_noint, bdx_ctl_thresh5;

/* bdx.c: what discovery found */
int bdx_bus_to_pkg(struct pci_bus *bus);
bool bdx_has_port2(int pkg);

/* bdx_pci.c */
extern const struct uncore_type bdx_ha, bdx_imc, bdx_irp, bdx_qpi,
	bdx_r2pcie, bdx_r3qpi;
extern struct pci_driver bdx_pci_driver;

#endif /* _UNCORE_PMU_BDX_H */
