/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_sim: the 64-bit Xeon MP with L3 model's registers (p4mp_regs.c,
 * no locking) and what its glue (p4mp.c) and KUnit share of them.
 */
#ifndef _UNCORE_SIM_P4MP_H
#define _UNCORE_SIM_P4MP_H

#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define P4MP_MSR_FIRST		0x107cc
#define P4MP_NR_MSRS		8
#define P4MP_CTL6		6
#define P4MP_CNTR7		7
#define P4MP_COUNT		GENMASK_ULL(31, 0)
/*
 * Saturate, and above it reserved, in the digest's reading of the
 * qualification figures (18-51 to 18-53) [EXT, moderate confidence]: a
 * saturating counter sticks at 0xFFFFFFFF [INF]. EFSB counts only with a
 * qualification bit set [EXT, SDM p.18-108]: one below these [INF].
 */
#define P4MP_SATURATE		BIT_ULL(59)
#define P4MP_NOT_QUAL		GENMASK_ULL(63, 59)
#define P4MP_EFSB0		4

/**
 * struct p4mp_pkg - one package's registers
 * @lock: serialises the MSR seam and debugfs (IRQs off); p4mp_regs.c
 *	takes none, its callers do
 * @lat_bit: the CTL6 bit that makes CNTR7 count
 * @cntr7_mask: CNTR7's bits: 64, as the SDM's prose says [EXT], or the 32
 *	that 003:27-29 lists for every one of the eight MSRs
 * @reg: the eight MSRs as software reads them
 * @total: per register: what it counted, unwrapped
 * @rate: per register: occurrences per second of sim time
 * @frac: per register: rate-mode remainder, in 1e-9 occurrences
 * @now_ns: sim time up to which @rate has been counted
 * @reads: MSR reads
 * @writes: MSR writes
 * @faults: accesses to an MSR the part does not have
 * @dropped: injected occurrences on a register that was not counting
 */
struct p4mp_pkg {
	raw_spinlock_t lock;
	unsigned int lat_bit;
	u64 cntr7_mask;
	u64 reg[P4MP_NR_MSRS];
	u64 total[P4MP_NR_MSRS];
	u64 rate[P4MP_NR_MSRS];
	u64 frac[P4MP_NR_MSRS];
	u64 now_ns;
	u64 reads;
	u64 writes;
	u64 faults;
	u64 dropped;
};

void p4mp_pkg_init(struct p4mp_pkg *p, unsigned int lat_bit,
		   unsigned int cntr7_bits, u64 now);
int p4mp_index(u32 msr);
bool p4mp_counting(const struct p4mp_pkg *p, unsigned int i);
bool p4mp_add(struct p4mp_pkg *p, unsigned int i, u64 n);
void p4mp_advance(struct p4mp_pkg *p, u64 now);
int p4mp_reg_access(struct p4mp_pkg *p, u64 now, u32 msr, u64 *val,
		    bool write);

#endif /* _UNCORE_SIM_P4MP_H */
