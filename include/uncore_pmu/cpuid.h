/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU facts the driver's probe and the simulator's model choice must read
 * alike: the simulator models a part only where the driver would drive it.
 */
#ifndef _UNCORE_PMU_CPUID_H
#define _UNCORE_PMU_CPUID_H

#include <asm/processor.h>

/**
 * uncore_cpu_has_l3() - does CPUID leaf 4 list a level 3 cache?
 *
 * Leaf 4 (deterministic cache parameters) has one subleaf per cache, the
 * list ending at a subleaf of cache type 0 (EAX[4:0]); EAX[7:5] is the
 * cache's level. A CPU without leaf 4 reports no L3 here.
 *
 * Return: true if some subleaf is a level 3 cache.
 */
static inline bool uncore_cpu_has_l3(void)
{
	unsigned int eax, ebx, ecx, edx, i;

	if (boot_cpu_data.cpuid_level < 4)
		return false;
	for (i = 0; i < 16; i++) {
		cpuid_count(4, i, &eax, &ebx, &ecx, &edx);
		if (!(eax & 0x1f))
			return false;
		if (((eax >> 5) & 0x7) == 3)
			return true;
	}
	return false;
}

#endif /* _UNCORE_PMU_CPUID_H */
