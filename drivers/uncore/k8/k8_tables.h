/* SPDX-License-Identifier: GPL-2.0 */
/*
 * K8 northbridge event aliases, counter constraints and availability. They
 * are defined in k8_events.c, which the build generates from
 * k8_events.tsv (gen_events.awk): change the table, not the C. The
 * aliases end with a NULL name, the constraints with a zero counters, the
 * availability with a NULL avail.
 */
#ifndef _UNCORE_PMU_K8_TABLES_H
#define _UNCORE_PMU_K8_TABLES_H

#include "uncore.h"

extern const struct uncore_event_desc k8_nb_events[];
extern const struct uncore_constraint k8_nb_constraints[];
extern const struct uncore_avail k8_nb_avail[];

#endif /* _UNCORE_PMU_K8_TABLES_H */
