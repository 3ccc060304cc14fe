/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BDX event aliases and counter constraints of every box type. They are
 * defined in bdx_events.c, which the build generates from bdx_events.tsv
 * (gen_events.awk): change the table, not the C. Each *_events[] array
 * ends with a NULL name, each *_constraints[] array with a zero counters.
 */
#ifndef _UNCORE_PMU_BDX_TABLES_H
#define _UNCORE_PMU_BDX_TABLES_H

#include "uncore.h"

extern const struct uncore_event_desc bdx_ubox_events[];
extern const struct uncore_constraint bdx_ubox_constraints[];
extern const struct uncore_event_desc bdx_cbox_events[];
extern const struct uncore_constraint bdx_cbox_constraints[];
extern const struct uncore_event_desc bdx_sbox_events[];
extern const struct uncore_constraint bdx_sbox_constraints[];
extern const struct uncore_event_desc bdx_pcu_events[];
extern const struct uncore_constraint bdx_pcu_constraints[];
extern const struct uncore_event_desc bdx_ha_events[];
extern const struct uncore_constraint bdx_ha_constraints[];
extern const struct uncore_event_desc bdx_imc_events[];
extern const struct uncore_constraint bdx_imc_constraints[];
extern const struct uncore_event_desc bdx_irp_events[];
extern const struct uncore_constraint bdx_irp_constraints[];
extern const struct uncore_event_desc bdx_qpi_events[];
extern const struct uncore_constraint bdx_qpi_constraints[];
extern const struct uncore_event_desc bdx_r2pcie_events[];
extern const struct uncore_constraint bdx_r2pcie_constraints[];
extern const struct uncore_event_desc bdx_r3qpi_events[];
extern const struct uncore_constraint bdx_r3qpi_constraints[];

#endif /* _UNCORE_PMU_BDX_TABLES_H */
