// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_sim: the registers of the 64-bit Xeon MP with L3 model (see
 * p4mp.c for the part), as pure functions of a package's state and sim
 * time: no locking, no hardware, no debugfs. KUnit tests them
 * (tests/kunit/p4mp_regs_test.c).
 */
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "counter.h"
#include "p4mp.h"

/**
 * p4mp_pkg_init() - a package as it comes out of reset
 * @p: package state
 * @lat_bit: the bit of CTL6 that enables CNTR7
 * @cntr7_bits: CNTR7's width, 32 or 64
 * @now: sim time now
 *
 * Every register 0 and counting nothing, at sim time @now.
 */
void p4mp_pkg_init(struct p4mp_pkg *p, unsigned int lat_bit,
		   unsigned int cntr7_bits, u64 now)
{
	memset(p->reg, 0, sizeof(p->reg));
	memset(p->total, 0, sizeof(p->total));
	memset(p->rate, 0, sizeof(p->rate));
	memset(p->frac, 0, sizeof(p->frac));
	p->lat_bit = lat_bit;
	p->cntr7_mask = cntr7_bits == 32 ? P4MP_COUNT : U64_MAX;
	p->now_ns = now;
	p->reads = 0;
	p->writes = 0;
	p->faults = 0;
	p->dropped = 0;
}

/**
 * p4mp_index() - which register an MSR is
 * @msr: the MSR
 *
 * Return: the register index of @msr, or -1 if the part has no such MSR.
 */
int p4mp_index(u32 msr)
{
	return msr >= P4MP_MSR_FIRST && msr < P4MP_MSR_FIRST + P4MP_NR_MSRS ?
	       msr - P4MP_MSR_FIRST : -1;
}

/**
 * p4mp_counting() - does a register count
 * @p: package state
 * @i: the register
 *
 * Return: true for CNTR7 with its bit of CTL6 set, for an IBUSQ or ISNPQ
 * counter whose control half (bits 63:32) is not 0 (003:35), and for an
 * EFSB counter with a qualification bit set.
 */
bool p4mp_counting(const struct p4mp_pkg *p, unsigned int i)
{
	if (i == P4MP_CNTR7)
		return p->reg[P4MP_CTL6] & BIT_ULL(p->lat_bit);
	if (i >= P4MP_EFSB0 && i < P4MP_CTL6)
		return p->reg[i] >> 32 & ~(P4MP_NOT_QUAL >> 32);
	return i < P4MP_CTL6 && p->reg[i] >> 32;
}

/**
 * p4mp_add() - occurrences on a register
 * @p: package state
 * @i: the register
 * @n: occurrences
 *
 * Counts @n occurrences on register @i if it is counting.
 *
 * Return: true if it was.
 */
bool p4mp_add(struct p4mp_pkg *p, unsigned int i, u64 n)
{
	if (!p4mp_counting(p, i))
		return false;
	p->total[i] += n;
	if (i == P4MP_CNTR7) {
		sim_counter_add(&p->reg[i], p->cntr7_mask, n);
	} else if (p->reg[i] & P4MP_SATURATE) {
		u64 count = min_t(u64, (p->reg[i] & P4MP_COUNT) + n, P4MP_COUNT);

		p->reg[i] = (p->reg[i] & ~P4MP_COUNT) | count;
	} else {
		sim_counter_add(&p->reg[i], P4MP_COUNT, n);
	}
	return true;
}

/**
 * p4mp_advance() - bring a package up to a sim time
 * @p: package state
 * @now: sim time; an earlier one than the package's changes nothing
 *
 * Brings rate-mode counting up to sim time @now.
 */
void p4mp_advance(struct p4mp_pkg *p, u64 now)
{
	u64 dt = now > p->now_ns ? now - p->now_ns : 0;
	unsigned int i;

	p->now_ns = max(now, p->now_ns);
	for (i = 0; i < P4MP_NR_MSRS; i++) {
		u64 part, n;

		if (!p->rate[i] || !dt)
			continue;
		/* rate * dt in units of 1e-9, carried over between steps. */
		n = mul_u64_u64_div_u64(p->rate[i], dt, NSEC_PER_SEC);
		part = p->rate[i] * dt - n * NSEC_PER_SEC + p->frac[i];
		n += part / NSEC_PER_SEC;
		p->frac[i] = part % NSEC_PER_SEC;
		p4mp_add(p, i, n);
	}
}

/**
 * p4mp_reg_access() - an MSR read or write
 * @p: package state
 * @now: sim time of the access
 * @msr: the MSR
 * @val: the value read (0 on a fault), or the value to write
 * @write: a write
 *
 * An access at sim time @now: counting up to it goes by the old value,
 * after it by a write's new one. -EIO where the part would #GP.
 *
 * Return: 0 or -EIO.
 */
int p4mp_reg_access(struct p4mp_pkg *p, u64 now, u32 msr, u64 *val,
		    bool write)
{
	int i = p4mp_index(msr);

	if (write)
		p->writes++;
	else
		p->reads++;
	if (i < 0) {
		p->faults++;
		if (!write)
			*val = 0;
		return -EIO;
	}
	p4mp_advance(p, now);
	/* A 32-bit CNTR7 keeps no upper half [INF]. */
	if (write)
		p->reg[i] = i == P4MP_CNTR7 ? *val & p->cntr7_mask : *val;
	else
		*val = p->reg[i];
	return 0;
}
