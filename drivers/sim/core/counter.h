/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter arithmetic every simulated part shares: a counter is the low
 * bits of a register (the rest may be control bits, as on the NetBurst
 * Xeon MP), counting modulo its width and reporting the carry out of it.
 */
#ifndef _UNCORE_SIM_COUNTER_H
#define _UNCORE_SIM_COUNTER_H

#include <linux/limits.h>
#include <linux/types.h>

/**
 * sim_counter_add() - add to the counter in the low bits of a register
 * @reg: the register
 * @mask: the counter's bits, low and contiguous (GENMASK_ULL(width - 1, 0))
 * @n: occurrences to add
 *
 * The bits of @reg above @mask are left as they are; the count wraps
 * within @mask, as the part's counter does.
 *
 * Return: true if the counter carried out of its top bit (overflowed),
 * once or more.
 */
static inline bool sim_counter_add(u64 *reg, u64 mask, u64 n)
{
	bool carry = n > mask - (*reg & mask);

	*reg = (*reg & ~mask) | ((*reg + n) & mask);
	return carry;
}

#endif /* _UNCORE_SIM_COUNTER_H */
