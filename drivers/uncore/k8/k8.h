/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_pmu: the K8 (Athlon 64 / Opteron) northbridge, what main.c and the
 * KUnit suite need of it.
 */
#ifndef _UNCORE_PMU_K8_H
#define _UNCORE_PMU_K8_H

#include "uncore.h"
#include "k8_tables.h"

extern const struct uncore_platform k8_platform;
extern const struct uncore_type k8_nb;

#endif /* _UNCORE_PMU_K8_H */
