/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNCORE_PMU_BDX_H
#define _UNCORE_PMU_BDX_H

/* The node-ID map has eight 3-bit fields (manual 1.6.1): E7 v4 goes to 8. */
#define BDX_MAX_PKGS	8

extern const struct uncore_platform bdx_platform;

#endif /* _UNCORE_PMU_BDX_H */
