/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _UNCORE_PMU_P4MP_H
#define _UNCORE_PMU_P4MP_H

/* p4mp.c: the NetBurst Xeon MP with L3, and the parts it must not bind */
extern const struct uncore_platform p4mp_platform, p4mp_other_platform;

#endif /* _UNCORE_PMU_P4MP_H */
