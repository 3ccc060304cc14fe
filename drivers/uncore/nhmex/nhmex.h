/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: the Xeon 7500 (Nehalem-EX) family, what main.c and the
 * KUnit suite need of it.
 */
#ifndef _UNCORE_PMU_NHMEX_H
#define _UNCORE_PMU_NHMEX_H

#include "uncore.h"
#include "nhmex_tables.h"

extern const struct uncore_platform nhmex_platform;

extern const struct uncore_type nhmex_ubox, nhmex_cbox, nhmex_bbox,
	nhmex_sbox, nhmex_mbox, nhmex_rbox, nhmex_wbox;

#endif /* _UNCORE_PMU_NHMEX_H */
