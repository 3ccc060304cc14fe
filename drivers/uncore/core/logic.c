// SPDX-License-Identifier: GPL-2.0
/*
 * Pure logic of uncore_pmu: no registers, no perf state, no locking.
 * Everything here is unit-tested by tests/kunit/core_test.c, but for the
 * aux sharing and constraint lookups, tested on BDX's types by
 * tests/kunit/bdx_test.c.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "uncore.h"

/* Poll no faster than this, whatever the counter width and rate. */
#define UNCORE_MIN_POLL_NS	(1 * NSEC_PER_MSEC)
/* Nothing is gained by a longer period; it keeps ktime arithmetic small. */
#define UNCORE_MAX_POLL_NS	(3600 * NSEC_PER_SEC)

/**
 * uncore_delta() - events counted between two reads of a narrow counter
 * @prev: earlier raw value
 * @now: later raw value
 * @width: counter width in bits (1..64)
 *
 * Correct across one wrap of the hardware counter: the poll timer makes sure
 * no two reads are further apart than half the counter's range. Bits above
 * @width (reserved, "ignored" in the manuals) do not leak into the result.
 *
 * Return: @now - @prev modulo 2^@width.
 */
u64 uncore_delta(u64 prev, u64 now, int width)
{
	int shift = 64 - width;

	return ((now << shift) - (prev << shift)) >> shift;
}

/*
 * Kuhn's augmenting path for event @ev: a counter it allows that is free,
 * else one whose event can go elsewhere, recursively. A step is a counter
 * taken or examined; each counter is examined at most once per search
 * (@seen), so a search takes at most 2 * counters + 1 steps, and recurses
 * at most as deep as there are counters.
 */
static bool assign_augment(const u32 *allowed, int ev, int *owner,
			   u32 *used, u32 *seen, int *assign,
			   unsigned int *steps)
{
	const u32 ctrs = GENMASK(UNCORE_MAX_EVENTS - 1, 0);
	unsigned long cand = allowed[ev] & ctrs & ~*used;
	int ctr;

	/* A free counter first: moving another event costs register writes. */
	if (cand) {
		ctr = __ffs(cand);
		(*steps)++;
		goto take;
	}
	cand = allowed[ev] & ctrs & ~*seen;
	for_each_set_bit(ctr, &cand, UNCORE_MAX_EVENTS) {
		if (*seen & BIT(ctr))
			continue;
		(*steps)++;
		*seen |= BIT(ctr);
		if (assign_augment(allowed, owner[ctr], owner, used, seen,
				   assign, steps))
			goto take;
	}
	return false;
take:
	owner[ctr] = ev;
	*used |= BIT(ctr);
	assign[ev] = ctr;
	return true;
}

/**
 * uncore_assign_counters() - place events on counters under constraints
 * @allowed: per event, the counters it may use (bit i: counter i, i below
 *	UNCORE_MAX_EVENTS)
 * @prev: per event, its current counter or -1; kept when possible
 * @n: number of events (at most UNCORE_MAX_EVENTS)
 * @assign: per event, the chosen counter (output)
 * @steps: if not NULL, the counters examined (for the tests' bound)
 *
 * A maximum bipartite matching (Kuhn): every event keeps its counter if
 * it may, then each other event, most constrained first, takes a free
 * counter or moves others along an augmenting path. It never refuses a
 * set of events that fits, and its cost is polynomial: at most
 * @n * (2 * C + 2) steps for C counters, 180 for nine events on nine
 * counters. It runs in add(), IRQs off, at every multiplexing rotation,
 * where the exhaustive search it replaces took some 10^5 steps to refuse
 * a ninth event on eight counters.
 *
 * Return: 0, or -ENOSPC if the events cannot all be placed.
 */
int uncore_assign_counters(const u32 *allowed, const int *prev, int n,
			   int *assign, unsigned int *steps)
{
	int order[UNCORE_MAX_EVENTS], owner[UNCORE_MAX_EVENTS];
	unsigned int dummy;
	u32 used = 0;
	int i, j;

	if (!steps)
		steps = &dummy;
	*steps = 0;
	if (n > UNCORE_MAX_EVENTS)
		return -ENOSPC;
	for (i = 0; i < n; i++) {
		assign[i] = -1;
		(*steps)++;
		if (prev[i] >= 0 && prev[i] < UNCORE_MAX_EVENTS &&
		    (allowed[i] & BIT(prev[i])) && !(used & BIT(prev[i]))) {
			owner[prev[i]] = i;
			used |= BIT(prev[i]);
			assign[i] = prev[i];
		}
	}
	/* The others by the number of counters they allow: insertion sort. */
	for (i = 0, j = 0; i < n; i++)
		if (assign[i] < 0)
			order[j++] = i;
	n = j;
	for (i = 1; i < n; i++) {
		int ev = order[i];

		for (j = i; j > 0 &&
		     hweight32(allowed[order[j - 1]]) > hweight32(allowed[ev]);
		     j--)
			order[j] = order[j - 1];
		order[j] = ev;
	}
	for (i = 0; i < n; i++) {
		u32 seen = 0;

		if (!assign_augment(allowed, order[i], owner, &used, &seen,
				    assign, steps))
			return -ENOSPC;
	}
	return 0;
}

/*
 * Does @alt fit @slot as @st has it: every field it needs is unused or
 * holds the value it needs?
 */
static bool aux_fits(const struct uncore_aux_slot *slot,
		     const struct uncore_aux_state *st,
		     const struct uncore_aux_alt *alt)
{
	int f, r;

	for (f = 0; f < slot->nfields; f++) {
		if (!(alt->fields & BIT(f)) || !st->ref[alt->slot][f])
			continue;
		for (r = 0; r < slot->nregs; r++)
			if ((st->val[alt->slot][r] ^ alt->val[r]) &
			    slot->field[f][r])
				return false;
	}
	return true;
}

static void aux_apply(const struct uncore_aux_slot *slot,
		      struct uncore_aux_state *st,
		      const struct uncore_aux_alt *alt)
{
	u64 *val = st->val[alt->slot];
	int f, r;

	for (f = 0; f < slot->nfields; f++) {
		if (!(alt->fields & BIT(f)))
			continue;
		st->ref[alt->slot][f]++;
		for (r = 0; r < slot->nregs; r++)
			val[r] = (val[r] & ~slot->field[f][r]) |
				 (alt->val[r] & slot->field[f][r]);
	}
}

/**
 * uncore_aux_get() - take what an event needs of a box's auxiliary slots
 * @slots: the box type's slots
 * @st: what the box's slots hold; updated only on success
 * @need: what the event needs
 * @choice: set to the alternative taken for each of @need's requests
 * @dirty: set to the registers whose values changed (bit
 *	s * UNCORE_AUX_REGS + r: register r of slot s), which the caller
 *	writes to the hardware
 *
 * Every request is granted or none is. Combinations of alternatives are
 * tried in order of preference, the first request's choice varying
 * fastest; there are at most UNCORE_AUX_ALTS^UNCORE_AUX_REQS of them.
 *
 * Return: 0, or -EBUSY if no combination fits.
 */
int uncore_aux_get(const struct uncore_aux_slot *slots,
		   struct uncore_aux_state *st, const struct uncore_aux_need *need,
		   u8 *choice, u64 *dirty)
{
	struct uncore_aux_state trial;
	int combos = 1, c, i, s, r;

	for (i = 0; i < need->nreq; i++)
		combos *= need->req[i].nalt;
	for (c = 0; c < combos; c++) {
		int rest = c;

		trial = *st;
		for (i = 0; i < need->nreq; i++) {
			const struct uncore_aux_req *req = &need->req[i];
			const struct uncore_aux_alt *alt;

			choice[i] = rest % req->nalt;
			rest /= req->nalt;
			alt = &req->alt[choice[i]];
			if (!aux_fits(&slots[alt->slot], &trial, alt))
				break;
			aux_apply(&slots[alt->slot], &trial, alt);
		}
		if (i < need->nreq)
			continue;
		*dirty = 0;
		for (s = 0; s < UNCORE_AUX_SLOTS; s++)
			for (r = 0; r < UNCORE_AUX_REGS; r++)
				if (trial.val[s][r] != st->val[s][r])
					*dirty |= BIT_ULL(s * UNCORE_AUX_REGS + r);
		*st = trial;
		return 0;
	}
	return -EBUSY;
}

/**
 * uncore_aux_put() - give back what uncore_aux_get() granted
 * @slots: the box type's slots
 * @st: what the box's slots hold
 * @need: what the event needed
 * @choice: the alternatives it was granted
 *
 * The fields keep their values: the hardware applies a field only to the
 * events that request it, and each of those requests its own value, so a
 * value nobody holds changes no count. The next event that needs the same
 * value writes nothing (a perf rotation's del and add of the same events,
 * say). uncore_aux_scrub() clears them once the box's events are gone.
 */
void uncore_aux_put(const struct uncore_aux_slot *slots,
		    struct uncore_aux_state *st,
		    const struct uncore_aux_need *need, const u8 *choice)
{
	int i, f;

	for (i = 0; i < need->nreq; i++) {
		const struct uncore_aux_alt *alt = &need->req[i].alt[choice[i]];

		for (f = 0; f < slots[alt->slot].nfields; f++)
			if (alt->fields & BIT(f))
				st->ref[alt->slot][f]--;
	}
}

/**
 * uncore_aux_scrub() - clear the fields nobody holds
 * @slots: the box type's slots
 * @nslots: how many
 * @st: what the box's slots hold
 *
 * A field its users have all given back goes to zero, the value the core
 * gives every field at box init: a filter or match left set would apply
 * to the next agent's events (another driver, a tool writing MSRs), and
 * some registers refuse writes while one is set (NHM-EX S-Box MM_CFG[63]).
 *
 * Return: the registers whose values changed, as uncore_aux_get()'s
 * @dirty, which the caller writes to the hardware.
 */
u64 uncore_aux_scrub(const struct uncore_aux_slot *slots, int nslots,
		     struct uncore_aux_state *st)
{
	u64 dirty = 0;
	int s, f, r;

	for (s = 0; s < nslots; s++) {
		for (f = 0; f < slots[s].nfields; f++) {
			if (st->ref[s][f])
				continue;
			for (r = 0; r < slots[s].nregs; r++) {
				if (!(st->val[s][r] & slots[s].field[f][r]))
					continue;
				st->val[s][r] &= ~slots[s].field[f][r];
				dirty |= BIT_ULL(s * UNCORE_AUX_REGS + r);
			}
		}
	}
	return dirty;
}

/**
 * uncore_aux_request() - add a request to an event's auxiliary needs
 * @need: the event's needs
 * @slot: the slot of its first (or only) alternative
 * @fields: the fields of @slot that alternative needs
 *
 * Return: the alternative, for the caller to fill in its values, or NULL
 * if @need already has UNCORE_AUX_REQS requests.
 */
struct uncore_aux_alt *uncore_aux_request(struct uncore_aux_need *need,
					  int slot, u32 fields)
{
	struct uncore_aux_req *req;

	if (need->nreq >= UNCORE_AUX_REQS)
		return NULL;
	req = &need->req[need->nreq++];
	req->nalt = 0;
	return uncore_aux_alternative(need, slot, fields);
}

/**
 * uncore_aux_alternative() - add an alternative to the last request
 * @need: the event's needs, with at least one request
 * @slot: the slot the alternative uses
 * @fields: the fields of @slot it needs
 *
 * Return: the alternative, for the caller to fill in its values and
 * control bits, or NULL if the request has UNCORE_AUX_ALTS already.
 */
struct uncore_aux_alt *uncore_aux_alternative(struct uncore_aux_need *need,
					      int slot, u32 fields)
{
	struct uncore_aux_req *req;
	struct uncore_aux_alt *alt;

	if (!need->nreq)
		return NULL;
	req = &need->req[need->nreq - 1];
	if (req->nalt >= UNCORE_AUX_ALTS)
		return NULL;
	alt = &req->alt[req->nalt++];
	memset(alt, 0, sizeof(*alt));
	alt->slot = slot;
	alt->fields = fields;
	return alt;
}

/**
 * uncore_poll_period_ns() - how often to read a counter so no wrap is lost
 * @width: counter width in bits
 * @max_rate: the fastest the counter can advance, in counts per second
 *
 * Half the time the counter needs to wrap at @max_rate, so that two reads
 * never straddle a whole wrap even with timer slack.
 *
 * Return: the period in nanoseconds, clamped to [1 ms, 1 h].
 */
u64 uncore_poll_period_ns(int width, u64 max_rate)
{
	u64 half = BIT_ULL(width - 1), ns;

	/*
	 * Clamp before the nanosecond product: x86's mul_u64_u64_div_u64()
	 * traps (#DE) when the quotient does not fit in 64 bits.
	 */
	if (!max_rate ||
	    div64_u64(half, max_rate) >= UNCORE_MAX_POLL_NS / NSEC_PER_SEC)
		return UNCORE_MAX_POLL_NS;
	ns = mul_u64_u64_div_u64(half, NSEC_PER_SEC, max_rate);
	return max_t(u64, ns, UNCORE_MIN_POLL_NS);
}

/**
 * uncore_constraint_counters() - counters an event may use
 * @c: the type's constraint table, ending with a zero @counters entry
 * @config: the event's attr.config
 * @num_counters: general counters of the box
 * @max_inc: set to the matching entry's max_inc, or left alone
 *
 * Return: bitmap of allowed counters; all of them if no entry matches.
 */
u32 uncore_constraint_counters(const struct uncore_constraint *c, u64 config,
			       int num_counters, u16 *max_inc)
{
	u32 all = GENMASK(num_counters - 1, 0);

	for (; c && c->counters; c++) {
		if ((config & c->cmask) != c->code)
			continue;
		if (c->max_inc)
			*max_inc = c->max_inc;
		return c->counters & all;
	}
	return all;
}

/**
 * uncore_read_split() - read a counter exposed as two dwords, tear-free
 * @ops: reads a dword; bounds what the counter counted meanwhile
 * @ctx: passed to @ops
 * @width: counter width in bits, at most 64
 * @prev: the counter's value at its last read: where its lower dword
 *	probably is now
 *
 * The counter counts on while it is read, at most @ops->slack since the
 * first read began. Two reads are enough whenever the lower dword cannot
 * have carried into the upper one between them:
 * - lower, then upper, when the lower dword is more than the slack below
 *   its wrap: no carry can fall between the two;
 * - upper, then lower, when the lower dword is above the slack: it has
 *   not wrapped since the upper read began, so that read belongs to it.
 * @prev chooses the order (a lower dword in its bottom half is read
 * first), so that a counter near either end of its lower dword, as one
 * that starts from 0 is for a long time, takes two reads. Where the
 * guess fails (the lower dword is near the other end, or more time than
 * expected passed) the read goes on in the other order: upper again if
 * the lower dword it reads is within the slack of a wrap, since a carry
 * can then have fallen before it (another would take 2^32 more counts),
 * so the new upper dword belongs to it. Three reads then, four at most.
 * (Either order without its check is off by 2^32 when a carry falls
 * between the two reads.)
 *
 * Return: the counter value.
 */
u64 uncore_read_split(const struct uncore_split_ops *ops, void *ctx, int width,
		      u64 prev)
{
	u32 hi, lo;

	if (!(lower_32_bits(prev) & BIT(31))) {
		lo = ops->read(ctx, false);
		hi = ops->read(ctx, true);
		if ((u64)lo + ops->slack(ctx) <= U32_MAX)
			goto out;
	} else {
		hi = ops->read(ctx, true);
	}
	lo = ops->read(ctx, false);
	if (lo <= ops->slack(ctx))
		hi = ops->read(ctx, true);
out:
	return ((u64)hi << 32 | lo) & GENMASK_ULL(width - 1, 0);
}

/**
 * uncore_preload() - counter value that overflows after @left more counts
 * @left: counts wanted before the overflow
 * @width: counter width in bits
 *
 * Sampling by preload (BDX manual 2.1.2, step e): the counter is loaded
 * with 2^width - @left and overflows, raising the PMI, on the @left-th
 * count. @left is clamped to [1, 2^(width-1)]: a longer period takes
 * several preloads, each overflow only counting towards it, so that a
 * value read before the PMI is handled can never be taken for a second
 * wrap.
 *
 * Return: the value to load, within the counter's width.
 */
u64 uncore_preload(s64 left, int width)
{
	s64 max = BIT_ULL(width - 1);

	left = clamp_t(s64, left, 1, max);
	return (BIT_ULL(width) - left) & GENMASK_ULL(width - 1, 0);
}

/**
 * uncore_samples_due() - samples owed once a period's countdown ran out
 * @left: counts left in the current period minus those counted since:
 *	zero or less when at least one period has elapsed
 * @period: the sample period, at least 1
 * @next: set to the countdown of the period in progress after them
 *
 * A PMI may find the counter several periods past its preload: the part
 * counts on until the freeze takes hold, and a read or poll in between
 * may have taken part of the count already. Each elapsed period is one
 * sample; the remainder carries into the next period.
 *
 * Return: the number of samples owed, 0 if the period has not elapsed.
 */
u64 uncore_samples_due(s64 left, u64 period, s64 *next)
{
	u64 n;

	if (left > 0) {
		*next = left;
		return 0;
	}
	n = div64_u64((u64)-left, period) + 1;
	*next = left + (s64)(n * period);
	return n;
}

/**
 * uncore_scale_period() - @count * @num / @den, at most S64_MAX
 * @count: counts seen over @den
 * @num: the time the result is for
 * @den: the time @count took; 0 gives S64_MAX
 *
 * The frequency-mode period: the count a rate of @count per @den makes in
 * @num. The quotient of a burst over a short time can pass 64 bits, and
 * x86's 128-by-64 division then faults (#DE) instead of saturating; the
 * integer part of @count / @den is scaled first, the remainder's product
 * is then below @num and cannot overflow the division.
 *
 * Return: the product, clamped to [0, S64_MAX].
 */
u64 uncore_scale_period(u64 count, u64 num, u64 den)
{
	u64 q, r, whole, part;

	if (!den)
		return S64_MAX;
	q = div64_u64_rem(count, den, &r);
	if (q && num > div64_u64(S64_MAX, q))
		return S64_MAX;
	whole = q * num;
	part = mul_u64_u64_div_u64(r, num, den);
	return min_t(u64, whole + part, S64_MAX);
}
