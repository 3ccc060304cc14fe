/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Xeon 7500 event aliases and counter constraints of every box type. They
 * are defined in nhmex_events.c, which the build generates from
 * nhmex_events.tsv (gen_events.awk): change the table, not the C. Each
 * *_events[] array ends with a NULL name, each *_constraints[] array with
 * a zero counters.
 */
#ifndef _UNCORE_PMU_NHMEX_TABLES_H
#define _UNCORE_PMU_NHMEX_TABLES_H

#include "uncore.h"

extern const struct uncore_event_desc nhmex_ubox_events[];
extern const struct uncore_constraint nhmex_ubox_constraints[];
extern const struct uncore_event_desc nhmex_cbox_events[];
extern const struct uncore_constraint nhmex_cbox_constraints[];
extern const struct uncore_event_desc nhmex_bbox_events[];
extern const struct uncore_constraint nhmex_bbox_constraints[];
extern const struct uncore_event_desc nhmex_sbox_events[];
extern const struct uncore_constraint nhmex_sbox_constraints[];
extern const struct uncore_event_desc nhmex_mbox_events[];
extern const struct uncore_constraint nhmex_mbox_constraints[];
extern const struct uncore_event_desc nhmex_rbox_events[];
extern const struct uncore_constraint nhmex_rbox_constraints[];
extern const struct uncore_event_desc nhmex_wbox_events[];
extern const struct uncore_constraint nhmex_wbox_constraints[];

#endif /* _UNCORE_PMU_NHMEX_TABLES_H */
