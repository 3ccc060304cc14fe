// SPDX-License-Identifier: GPL-2.0
/*
 * The sampling engine: sampling events' countdowns over the counters,
 * the samples handed to perf for each period that ran out (through
 * perf_tp_event(), perf_compat.h says why), frequency mode fitted from
 * the true time, the driver's own throttle and each CPU's time budget for
 * sample passes. Whether a PMI (pmi.c) or the box's timer (poll.c) finds
 * the periods that ran out, the samples come from here.
 *
 * Context: on the box's reading CPU with IRQs off: inside a pass of the
 * poll timer (hard IRQ), of the PMI handler's irq_work (hard IRQ) or of
 * the PMI path's resume after a move (IPI), and in perf's start and add
 * callbacks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <asm/irq_regs.h>

#include "internal.h"

static unsigned int sample_tick_us = 1000;
module_param(sample_tick_us, uint, 0644);
MODULE_PARM_DESC(sample_tick_us,
		 "Period of the timer that samples boxes with no overflow interrupt (CBo, SBo), in us (default 1000, at least 10)");

unsigned int uncore_max_sample_rate = 100000;
module_param_named(max_sample_rate, uncore_max_sample_rate, uint, 0644);
MODULE_PARM_DESC(max_sample_rate,
		 "Samples per second an event may take before the driver throttles it for a tick; perf's perf_event_max_sample_rate, which modules cannot read (default 100000, perf's default)");

unsigned int uncore_max_cpu_percent = 25;
module_param_named(max_cpu_percent, uncore_max_cpu_percent, uint, 0644);
MODULE_PARM_DESC(max_cpu_percent,
		 "Share of the time a CPU may spend emitting uncore samples (in windows of 100 ms) before the driver throttles the events it samples; perf's perf_cpu_time_max_percent, which sees only the core PMU's NMIs (default 25, 1-100)");

DEFINE_PER_CPU(struct uncore_cpu_budget, uncore_budget);

/*
 * Samples a CPU takes in a window before its budget can drop one: a few
 * samples are no storm, and in a virtual machine the host can stretch a
 * single pass past the budget (a vCPU descheduled for tens of ms). Bounds
 * what a window can exceed the budget by to this many samples' cost.
 */
#define UNCORE_BUDGET_MIN_SAMPLES	16

/**
 * uncore_pass_begin() - a sample pass begins on this CPU
 *
 * Description: A pass is one run of the poll timer, of the PMI handler's
 * irq_work or of the PMI path's resume after a move; its time counts
 * against the CPU's budget (&struct uncore_cpu_budget).
 *
 * Context: IRQs off, on the CPU of the pass.
 */
void uncore_pass_begin(void)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 now = local_clock();

	if (now - b->window >= UNCORE_BUDGET_WINDOW_NS) {
		b->window = now;
		b->spent = 0;
		b->taken = 0;
	}
	b->pass = now;
}

/**
 * uncore_pass_end() - the sample pass of uncore_pass_begin() ends
 *
 * Context: IRQs off, on the CPU of the pass.
 */
void uncore_pass_end(void)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 took = local_clock() - b->pass;

	b->spent += took;
	b->worst = max(b->worst, took);
	b->total += took;
	b->passes++;
	b->pass = 0;
}

/**
 * uncore_over_budget() - has this CPU spent its share of time in sample passes
 * @now: local_clock() now
 *
 * The count throttle (uncore_sample_throttles()) bounds samples per event,
 * but a sample costs far more on a slow or instrumented machine, and many
 * events multiply it: only time bounds what is left of the CPU. A pass
 * that outlasts its window is measured on its own. The box timer backs off
 * on this alone; a sample is dropped only if the CPU has also taken
 * UNCORE_BUDGET_MIN_SAMPLES (uncore_drop_sample()).
 *
 * Context: IRQs off.
 *
 * Return: true if the current window's share is spent.
 */
bool uncore_over_budget(u64 now)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 spent = 0;
	unsigned int pct = clamp(READ_ONCE(uncore_max_cpu_percent), 1U, 100U);

	if (now - b->window < UNCORE_BUDGET_WINDOW_NS)
		spent = b->spent;
	if (b->pass)
		spent += now - b->pass;
	return spent * 100 >= UNCORE_BUDGET_WINDOW_NS * pct;
}

/**
 * uncore_budget_wait() - how long this CPU's passes should wait for its budget
 * @now: local_clock() now
 *
 * Context: IRQs off.
 *
 * Return: 0 if the CPU is within its budget (uncore_over_budget()),
 * otherwise the time left until its window ends and the budget is whole
 * again (at least a tick, for a pass that outlasted its window).
 */
u64 uncore_budget_wait(u64 now)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);
	u64 end = b->window + UNCORE_BUDGET_WINDOW_NS;

	if (!uncore_over_budget(now))
		return 0;
	return max_t(u64, end > now ? end - now : 0, TICK_NSEC);
}

/* Over budget, and enough samples taken that this is a storm: drop one. */
static bool uncore_drop_sample(u64 now)
{
	struct uncore_cpu_budget *b = this_cpu_ptr(&uncore_budget);

	if (b->taken < UNCORE_BUDGET_MIN_SAMPLES) {
		b->taken++;
		return false;
	}
	return uncore_over_budget(now);
}

/**
 * uncore_counter_interrupts() - can an event's counter interrupt at all
 * @event: the event, added
 *
 * Context: any.
 *
 * Return: false for a fixed counter without ov_en.
 */
bool uncore_counter_interrupts(struct perf_event *event)
{
	return !is_fixed_event(event) ||
	       !event_box(event)->pmu->type->ctl->fixed_no_ov;
}

/**
 * uncore_sampling_mode() - put a sampling event on the PMI path or its box's timer
 * @event: the event
 * @pmi: the PMI path
 *
 * Without a PMI to unfreeze the package, an ov_en counter's overflow would
 * leave every counter of it frozen, so the control value gets ov_en only
 * on the PMI path. Set at add (uncore_pmi_reachable()); the mode holds
 * until the event's del, but for the change from timer to PMI at the end
 * of a move (uncore_pkg_pmi_resume()).
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_sampling_mode(struct perf_event *event, bool pmi)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 ov_en = event_box(event)->pmu->type->ctl->ov_en;

	if (!is_sampling_event(event))
		return;
	if (pmi) {
		hwc->config |= ov_en;
		hwc->flags &= ~UNCORE_HWF_TIMER;
	} else {
		hwc->config &= ~ov_en;
		hwc->flags |= UNCORE_HWF_TIMER;
	}
}

/**
 * uncore_pmi_event() - is an event a sampling event on the PMI path
 * @event: the event
 *
 * Context: any.
 *
 * Return: true if it is.
 */
bool uncore_pmi_event(struct perf_event *event)
{
	return is_sampling_event(event) && !(event->hw.flags & UNCORE_HWF_TIMER);
}

/**
 * uncore_timer_event() - is an event a sampling event its box's timer samples
 * @event: the event
 *
 * Context: any.
 *
 * Return: true if it is.
 */
bool uncore_timer_event(struct perf_event *event)
{
	return is_sampling_event(event) && (event->hw.flags & UNCORE_HWF_TIMER);
}

/**
 * uncore_sample_tick_ns() - the period of the timer that samples
 *
 * Context: any.
 *
 * Return: sample_tick_us in ns, at least 10 us.
 */
u64 uncore_sample_tick_ns(void)
{
	return (u64)max(READ_ONCE(sample_tick_us), 10U) * NSEC_PER_USEC;
}

/**
 * uncore_period_begin() - start a sampling event's countdown
 * @hwc: the event's hw state
 * @carry: the box's timer may emit periods owed from before
 *
 * A countdown that ran out while the event was stopped, or that perf's
 * frequency code reset, starts a new period, as on perf's other pmus. Only
 * the box's timer can emit periods owed from before (@carry): those of an
 * event its box's move took off. A frequency-mode sample's period is what
 * the event counted since its last sample (&uncore_event.freq_count), not
 * the countdown's length; hwc->last_period is set only for perf's sample
 * output (uncore_emit_one()).
 *
 * Context: the box's reading CPU, IRQs off.
 *
 * Return: the counts left in the period.
 */
s64 uncore_period_begin(struct hw_perf_event *hwc, bool carry)
{
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);

	if (carry && (hwc->flags & UNCORE_HWF_CARRY)) {
		hwc->flags &= ~UNCORE_HWF_CARRY;
		return left;
	}
	hwc->flags &= ~UNCORE_HWF_CARRY;
	if (left <= 0) {
		left += period;
		if (left <= 0)
			left = period;
		local64_set(&hwc->period_left, left);
	}
	return left;
}

/**
 * uncore_set_period() - load a PMI event's counter to overflow when its period ends
 * @box: the box
 * @event: the event, stopped or frozen, its counter read since it last counted
 *
 * A write that fails leaves the counter as it was read: it is counted from
 * there, and the preload comes when the box answers again
 * (uncore_pmi_resync()).
 *
 * Context: the box's reading CPU, IRQs off.
 */
void uncore_set_period(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 val, errors = box->stats.errors;

	val = uncore_preload(uncore_period_begin(hwc, false),
			     counter_width(box->pmu->type, event));
	box->pmu->type->ops->write_counter(box, event, val);
	if (likely(box->stats.errors == errors))
		local64_set(&hwc->prev_count, val);
}

/**
 * uncore_tick_limit() - samples an event may take in one tick
 *
 * Description: perf's max_samples_per_tick, from the max_sample_rate
 * parameter.
 *
 * Context: any.
 *
 * Return: at least 1.
 */
unsigned int uncore_tick_limit(void)
{
	return max(DIV_ROUND_UP(READ_ONCE(uncore_max_sample_rate), HZ), 1U);
}

/*
 * The driver's throttle: at most uncore_tick_limit() samples per event in
 * any window of one tick, as perf allows. perf's own throttle only acts
 * from the second sample of one perf_tp_event() call on, so a stream of
 * single-sample PMIs would never meet it. Like perf, the sample that
 * reaches the limit is still taken. Return: true if this sample does.
 */

static bool uncore_sample_throttles(struct uncore_event *ue, u64 now)
{
	if (now - ue->thr_window >= TICK_NSEC) {
		ue->thr_window = now;
		ue->thr_samples = 0;
	}
	return ++ue->thr_samples >= uncore_tick_limit();
}

/*
 * Stop @event until a tick has passed: the box's timer, set to run at
 * least once a tick meanwhile, restarts it, unless perf's frequency tick
 * does so first (it restarts every event it finds with hwc->interrupts
 * at MAX_INTERRUPTS).
 */
static void uncore_throttle(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	uncore_perf_throttle(hwc);
	/*
	 * perf's tick may have restarted the event while the driver still
	 * held it: it is counted in n_throttled once however often it is
	 * throttled before the timer next looks at it.
	 */
	if (!(hwc->flags & UNCORE_HWF_THROTTLED)) {
		hwc->flags |= UNCORE_HWF_THROTTLED;
		box->n_throttled++;
	}
	box->throttles++;
	uncore_pmu_stop(event, 0);
}

/**
 * uncore_timer_regs() - the registers a timer sample reports
 * @caller: storage for the caller's own
 *
 * Those the timer interrupt interrupted, else (not expected: the box's
 * hrtimer is a hard one) the timer callback's own.
 *
 * Context: hard IRQ or IPI, IRQs off.
 *
 * Return: the registers.
 */
struct pt_regs *uncore_timer_regs(struct pt_regs *caller)
{
	struct pt_regs *regs = get_irq_regs();

	if (regs)
		return regs;
	perf_fetch_caller_regs(caller);
	return caller;
}

/*
 * Hand perf @n samples of @event, each of @period counts, from @box; the
 * last sample's period ended when the event's count was @end.
 *
 * The samples reach perf as perf_compat.h's &struct uncore_emitter says.
 *
 * One call per sample: perf's throttle acts from the second sample of a
 * call on, and counts samples since the CPU's last tick, which on a
 * reading CPU idle without a tick may be seconds ago: a PMI owing two
 * samples would throttle an event sampling at 1000/s. The driver's own
 * throttle (uncore_sample_throttles()) counts in real time instead.
 *
 * Return: true if the driver throttled the event.
 */
static bool uncore_emit(struct uncore_box *box, struct perf_event *event,
			struct pt_regs *regs, u64 n, u64 period, u64 end)
{
	struct uncore_event *ue = to_uevent(event);
	struct uncore_emitter em;
	u64 at = end - n * period;
	bool throttle = false;

	/*
	 * Only a pass's time budget bounds what a burst of owed periods costs
	 * (uncore_drop_sample()): a sample emitted outside one can keep IRQs
	 * off for as long as the periods last.
	 */
	WARN_ON_ONCE(!this_cpu_read(uncore_budget.pass));
	uncore_emit_begin(&em, event);
	for (; n && !throttle; n--) {
		u64 now = local_clock();

		/* Over budget: no sample, the event waits a tick from now. */
		if (uncore_drop_sample(now)) {
			box->over_budget += n;
			ue->thr_window = now;
			ue->thr_samples = 0;
			throttle = true;
			break;
		}
		throttle = uncore_sample_throttles(ue, now);
		if (!uncore_emit_one(&em, event, regs, period, at)) {
			box->lost += n;
			break;
		}
		at += period;
		box->samples++;
	}
	uncore_emit_end(&em, event);
	if (throttle)
		uncore_throttle(box, event);
	return throttle;
}

/*
 * The period that makes @event's samples come at its sample_freq. The
 * @count it took since its last sample (or its first start) gives its
 * rate; the period is what that rate counts until the next sample's slot
 * on a grid of 1/sample_freq steps (both times in &struct uncore_event). The
 * overflow of a period reaches the handler some time after it ran out, and
 * the counters stay frozen a while longer: aiming every sample at the grid,
 * not at one step after the previous sample, keeps those delays from adding
 * up, so that the rate is sample_freq on average however slow the handler
 * is, up to one step. A sample later than that (after a throttle, say)
 * starts the grid anew instead of catching up in a burst.
 *
 * perf's core fits the period at each sample only if the last came less
 * than two ticks before, and at each scheduler tick from the count over
 * that tick; but an idle CPU has no regular tick, and uncore counts go on
 * however idle the reading CPU is: perf's tick would fit a period to the
 * count of a long idle stretch as if it took one tick. So the driver fits
 * the period itself, from the true time, and perf's tick is kept from
 * changing it (uncore_freq_stamp()).
 */
static u64 uncore_freq_period(struct perf_event *event, u64 count)
{
	struct uncore_event *ue = to_uevent(event);
	u64 now = local_clock(), dt = now - ue->freq_last;
	u64 step = div64_u64(NSEC_PER_SEC, event->attr.sample_freq) ?: 1;
	u64 slot = ue->freq_slot + step;
	u64 period = event->hw.sample_period;

	if (!ue->freq_slot || slot <= now)
		slot = now + step;
	else
		slot = max(slot, now + step / 4);
	if (dt && ue->freq_last)
		period = uncore_scale_period(count, slot - now, dt);
	ue->freq_last = now;
	ue->freq_slot = slot;
	return max_t(u64, period, 1);
}

/**
 * uncore_sample() - emit the samples of every period that elapsed
 * @box: the box
 * @event: the event, just updated
 * @regs: the registers the samples carry
 * @running: set false if the event was throttled and stopped
 *
 * A throttled event stops; perf or the driver restarts it from a later
 * tick.
 *
 * Context: inside a sample pass (uncore_pass_begin()) on the box's reading
 * CPU, IRQs off.
 *
 * Return: the number of periods elapsed.
 */
u64 uncore_sample(struct uncore_box *box, struct perf_event *event,
		  struct pt_regs *regs, bool *running)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left), next;
	u64 n, count;

	n = uncore_samples_due(left, hwc->sample_period, &next);
	*running = true;
	if (!n)
		return 0;
	if (!event->attr.freq) {
		/* The last period ended sample_period - next counts ago. */
		*running = !uncore_emit(box, event, regs, n, hwc->sample_period,
					local64_read(&event->count) -
					(hwc->sample_period - next));
		local64_set(&hwc->period_left, next);
		return n;
	}
	/*
	 * Frequency mode: one sample for the whole count since the last,
	 * then a period fitted to the rate it came at (uncore_freq_period()).
	 * The count is kept apart from the countdown: perf's tick stops the
	 * event, refits sample_period (perf_adjust_period()) or zeroes
	 * period_left, and starts it again mid-period, so the countdown's
	 * length is not the sample's period. The stamp, taken again for the
	 * new period, holds perf's refit to a count or so of rounding.
	 */
	count = local64_xchg(&to_uevent(event)->freq_count, 0);
	*running = !uncore_emit(box, event, regs, 1, count,
				local64_read(&event->count));
	hwc->sample_period = uncore_freq_period(event, count);
	uncore_freq_stamp(event);
	local64_set(&hwc->period_left, hwc->sample_period);
	return n;
}

/**
 * uncore_sample_owed() - emit the periods a stopping event owes
 * @box: its box
 * @event: the event, its counter just disabled and read
 *
 * perf stops and starts events on its own: its frequency tick (every tick
 * of a busy CPU), a multiplexing rotation, a period ioctl; and a close
 * stops an event for good. A period that ended since the event's last
 * sample is emitted by the box's timer (timer sampling) or by the pass of
 * the overflow on its way (PMI); neither looks at a stopped event, and the
 * start that may follow begins a new period. So the samples are emitted
 * here, and the periods of a recording add up to its count less the last
 * partial period (review pmi-protocol N4). A throttled event's are not:
 * it samples no more until its tick has passed.
 *
 * The event's counter is disabled, but the event is not yet marked
 * stopped: perf_tp_event(), through which the samples go (perf_compat.h),
 * passes over a stopped event.
 *
 * Context: the box's reading CPU, IRQs off: perf's callbacks, or a sample
 * pass that stops an event (a pass of its own otherwise).
 */
void uncore_sample_owed(struct uncore_box *box, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	bool pass = this_cpu_read(uncore_budget.pass), running;
	struct pt_regs regs;

	if (local64_read(&hwc->period_left) > 0 || uncore_perf_throttled(hwc))
		return;
	perf_fetch_caller_regs(&regs);
	if (!pass)
		uncore_pass_begin();
	uncore_sample(box, event, &regs, &running);
	if (!pass)
		uncore_pass_end();
}

/**
 * uncore_pmi_sample() - a sampling event after its overflow
 * @p: its package's PMI state
 * @box: its box
 * @event: the event, its counter frozen
 * @regs: the registers the samples carry
 *
 * Count, emit the samples of every period that elapsed (the counter ran on
 * past zero until the freeze took hold), preload the next period.
 *
 * Context: the PMI pass, hard IRQ on the box's reading CPU.
 */
void uncore_pmi_sample(struct uncore_pkg_pmi *p, struct uncore_box *box,
		       struct perf_event *event, struct pt_regs *regs)
{
	bool running;

	uncore_event_update(box, event);
	p->periods += uncore_sample(box, event, regs, &running);
	if (running)
		uncore_set_period(box, event);
}
