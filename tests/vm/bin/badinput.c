// SPDX-License-Identifier: GPL-2.0
/*
 * Bad-input matrix for uncore_pmu, straight through perf_event_open(2)
 * (Broadwell; `badinput p4mp` for the Xeon MP L3 units, `badinput nhmex`
 * for the Xeon 7500, `badinput k8 REV` for the K8 northbridge):
 * every reserved config bit, out-of-range filter values, per-task events,
 * exclude bits, sampling, events on a package without the box, and groups
 * that can never be scheduled. Each case must fail with the exact errno
 * perf conventions give it, and the good cases beside them must open.
 *
 * Prints TAP lines ("ok - ..."/"not ok - ..."), as tests/vm/lib/lib.sh does.
 * Built static so the guest needs no libc of its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SYSFS "/sys/bus/event_source/devices/"

static int failures;

struct ev {
	const char *pmu;
	uint64_t config, config1, config2;
	int cpu;		/* -1: the PMU's first cpumask CPU */
	int pid;		/* -1: system-wide */
	uint64_t sample_period;
	int precise_ip;
	int exclude;		/* bit n: the n-th exclude_* flag */
};

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int pmu_type(const char *pmu)
{
	char path[256];

	snprintf(path, sizeof(path), SYSFS "%s/type", pmu);
	return read_int(path);
}

/* First CPU in the PMU's cpumask (a list like "0,4"). */
static int pmu_cpu(const char *pmu)
{
	char path[256];

	snprintf(path, sizeof(path), SYSFS "%s/cpumask", pmu);
	return read_int(path);
}

static int open_ev(const struct ev *e, int group_fd)
{
	struct perf_event_attr attr;
	int type = pmu_type(e->pmu);
	int cpu = e->cpu >= 0 ? e->cpu : pmu_cpu(e->pmu);

	if (type < 0 || (cpu < 0 && e->pid < 0)) {
		errno = ENOENT;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = e->config;
	attr.config1 = e->config1;
	attr.config2 = e->config2;
	attr.sample_period = e->sample_period;
	attr.precise_ip = e->precise_ip;
	/* Opened disabled: a refused event and an accepted one alike never reach add(). */
	attr.disabled = 1;
	attr.exclude_user = !!(e->exclude & 1);
	attr.exclude_kernel = !!(e->exclude & 2);
	attr.exclude_hv = !!(e->exclude & 4);
	attr.exclude_idle = !!(e->exclude & 8);
	attr.exclude_host = !!(e->exclude & 16);
	attr.exclude_guest = !!(e->exclude & 32);
	return syscall(SYS_perf_event_open, &attr, e->pid >= 0 ? e->pid : -1,
		       e->pid >= 0 ? -1 : cpu, group_fd, 0);
}

static void report(int good, const char *what, int got, int want)
{
	if (good) {
		printf("ok - %s\n", what);
		return;
	}
	printf("not ok - %s\n# got %s, want %s\n", what,
	       got ? strerror(got) : "success", want ? strerror(want) : "success");
	failures++;
}

/* Open @e alone; expect errno @want (0: success). */
static void expect(const struct ev *e, int want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void expect(const struct ev *e, int want, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	int fd, got;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);

	fd = open_ev(e, -1);
	got = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	report(got == want, what, got, want);
}

/* Open @a as leader and @b in its group; expect @want for @b. */
static void expect_group(const struct ev *a, const struct ev *b, int want,
			 const char *what)
{
	int lead = open_ev(a, -1), fd, got;

	if (lead < 0) {
		report(0, what, errno, 0);
		return;
	}
	fd = open_ev(b, lead);
	got = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	close(lead);
	report(got == want, what, got, want);
}

/* Bits of @pmu's config word @word that no format field covers. */
static uint64_t format_bits(const char *pmu, const char *word)
{
	char cmd[512], line[256];
	uint64_t bits = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cat " SYSFS "%s/format/* 2>/dev/null", pmu);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		char *s = line, *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = 0;
		if (strcmp(s, word))
			continue;
		s = colon + 1;
		while (*s && *s != '\n') {
			int lo = strtol(s, &s, 10), hi = lo, i;

			if (*s == '-')
				hi = strtol(s + 1, &s, 10);
			for (i = lo; i <= hi; i++)
				bits |= 1ULL << i;
			if (*s == ',')
				s++;
		}
	}
	pclose(p);
	return bits;
}

/* The counter control's enable bit: Broadwell's (manual 1.4), K8's. */
#define BDX_EN		(1ULL << 22)
#define K8_EN		(1ULL << 22)
/* Xeon 7500: bit 22 on the C, S, U and W boxes, bit 0 on B, R and M. */
#define NH_EN22		(1ULL << 22)
#define NH_EN0		1ULL

/*
 * Every bit outside the format of each config word is refused, but for
 * the control register's enable bit @en (0: none), which the driver sets
 * itself: config @base with it opens (uncore_pmu.rst, "Bits outside the
 * format").
 */
static void reserved_bits(const char *pmu, uint64_t base, uint64_t en)
{
	static const char * const words[] = { "config", "config1", "config2" };
	int w, bit;

	for (w = 0; w < 3; w++) {
		uint64_t allowed = format_bits(pmu, words[w]);
		int bad = 0, checked = 0;

		for (bit = 0; bit < 64; bit++) {
			struct ev e = { .pmu = pmu, .cpu = -1, .pid = -1 };
			uint64_t *field = w == 0 ? &e.config :
					  w == 1 ? &e.config1 : &e.config2;
			int fd;

			if (allowed & (1ULL << bit))
				continue;
			if (w == 0 && en == 1ULL << bit)
				continue;
			e.config = base;
			*field |= 1ULL << bit;
			fd = open_ev(&e, -1);
			checked++;
			if (fd >= 0 || errno != EINVAL) {
				printf("# %s %s bit %d: %s\n", pmu, words[w], bit,
				       fd >= 0 ? "accepted" : strerror(errno));
				bad++;
			}
			if (fd >= 0)
				close(fd);
		}
		printf("%sok - %s: all %d bits of %s outside format/ refused with EINVAL%s\n",
		       bad ? "not " : "", pmu, checked, words[w],
		       w == 0 && en ? ", but for the enable bit" : "");
		failures += !!bad;
	}
	if (en) {
		struct ev e = { .pmu = pmu, .config = base | en, .cpu = -1, .pid = -1 };
		char what[128];

		snprintf(what, sizeof(what), "%s: no format field claims the enable bit", pmu);
		report(!(format_bits(pmu, "config") & en), what, 0, 0);
		expect(&e, 0, "%s: config 0x%llx with the enable bit 0x%llx opens", pmu,
		       (unsigned long long)base, (unsigned long long)en);
	}
}

#define EV(p, c, c1) ((struct ev){ .pmu = (p), .config = (c), .config1 = (c1), \
				  .cpu = -1, .pid = -1 })

/*
 * The Xeon MP L3 units: attr.config is the qualification half verbatim,
 * and zero would never count; the latency pair takes no config. Two
 * counters per unit, one for the latency pair.
 */
static int p4mp_matrix(void)
{
	static const char * const units[] = { "uncore_ibusq", "uncore_isnpq",
					      "uncore_efsb" };
	const char *lat = "uncore_ibusq_lat";
	struct ev e;
	int i, lead, fd, got;

	for (i = 0; i < 3; i++) {
		reserved_bits(units[i], 0x1, 0);
		expect(&EV(units[i], 0x1, 0), 0, "%s qual=0x1 opens", units[i]);
		expect(&EV(units[i], 0x7ffffff, 0), 0, "%s qual=0x7ffffff opens", units[i]);
		for (lead = 27; lead < 32; lead++)
			expect(&EV(units[i], 1ULL << lead | 0x1, 0), EINVAL,
			       "%s qual bit %d (Saturate or above it) refused", units[i], lead);
		expect(&EV(units[i], 0, 0), EINVAL, "%s qual=0 (would never count) refused", units[i]);
	}
	reserved_bits(lat, 0, 0);
	expect(&EV(lat, 0, 0), 0, "%s opens with config 0", lat);

	e = EV("uncore_ibusq", 0x1, 0);
	e.pid = 0;
	expect(&e, EINVAL, "per-task event refused");
	for (i = 0; i < 6; i++) {
		static const char * const names[] = { "user", "kernel", "hv",
						       "idle", "host", "guest" };

		e = EV("uncore_ibusq", 0x1, 0);
		e.exclude = 1 << i;
		expect(&e, EINVAL, "exclude_%s refused", names[i]);
	}
	e = EV("uncore_ibusq", 0x1, 0);
	e.sample_period = 100000;
	expect(&e, 0, "sampling on ibusq (no interrupt: timer sampling) opens");
	e.precise_ip = 1;
	expect(&e, EOPNOTSUPP, "precise sampling on ibusq refused with EOPNOTSUPP");
	e = EV(lat, 0, 0);
	e.sample_period = 100000;
	expect(&e, 0, "sampling on the latency pair (timer sampling) opens");

	expect_group(&EV(lat, 0, 0), &EV(lat, 0, 0), EINVAL,
		     "group of two latency events (one counter) refused");
	expect_group(&EV("uncore_efsb", 0x1, 0), &EV("uncore_efsb", 0x2, 0), 0,
		     "group of two efsb events (two counters) opens");
	/* A third member has no counter left. */
	lead = open_ev(&EV("uncore_isnpq", 0x1, 0), -1);
	fd = lead < 0 ? -1 : open_ev(&EV("uncore_isnpq", 0x2, 0), lead);
	got = fd < 0 ? errno : 0;
	if (fd >= 0) {
		int third = open_ev(&EV("uncore_isnpq", 0x4, 0), lead);

		got = third < 0 ? errno : 0;
		if (third >= 0)
			close(third);
		close(fd);
	}
	report(got == EINVAL, "group of three isnpq events (two counters) refused", got, EINVAL);
	if (lead >= 0)
		close(lead);
	expect(&EV("uncore_cbox_0", 0x0835, 0), ENOENT, "no Broadwell PMU here");
	return failures ? 1 : 0;
}

#define EV3(p, c, c1, c2) ((struct ev){ .pmu = (p), .config = (c), \
					.config1 = (c1), .config2 = (c2), \
					.cpu = -1, .pid = -1 })

/* Three events in one group: the third's errno (0: all opened). */
static int group3(const struct ev *a, const struct ev *b, const struct ev *c)
{
	int lead = open_ev(a, -1), fd = -1, third = -1, got;

	if (lead < 0)
		return errno;
	fd = open_ev(b, lead);
	got = fd < 0 ? errno : 0;
	if (fd >= 0) {
		third = open_ev(c, lead);
		got = third < 0 ? errno : 0;
	}
	if (third >= 0)
		close(third);
	if (fd >= 0)
		close(fd);
	close(lead);
	return got;
}

/* B-box config: event code @ev on counter @ctr (config:1-5, 6-7). */
#define NH_B(ctr, ev)	((uint64_t)(ev) << 1 | (uint64_t)(ctr) << 6)
/* R-box ev_sel (config:1-5) and XBR MM_CFG (config:32-63). */
#define NH_R(ev)	((uint64_t)(ev) << 1)
#define NH_R_MM(mm)	((uint64_t)(mm) << 32)
/* M-box inc_sel (config:9-13); flag_mode (7) with set_flag_sel (19-21). */
#define NH_M_INC(n)	((uint64_t)(n) << 9)
#define NH_M_FLAG(n)	((uint64_t)1 << 7 | (uint64_t)(n) << 19)

/*
 * The Xeon 7500: each box's own refusals (B-box codes that are not the
 * chosen counter's, R-box selects 0x18-0x1f, S-box CYCLES_FULL over
 * several C-boxes, reserved bits of every auxiliary register, a
 * sub-control value on an event that has none), then the generic ones.
 */
static int nhmex_matrix(void)
{
	const char *b = "uncore_bbox_0", *s = "uncore_sbox_1", *r = "uncore_rbox_0";
	const char *m = "uncore_mbox_1", *c = "uncore_cbox_2";
	struct ev e;
	int i;

	reserved_bits("uncore_ubox", 0x50, NH_EN22);
	reserved_bits(c, 0x14 | 0x100, NH_EN22);
	reserved_bits(b, NH_B(3, 0x17), NH_EN0);
	reserved_bits(s, 0x09, NH_EN22);
	reserved_bits(m, NH_M_INC(0x1b), NH_EN0);
	reserved_bits("uncore_wbox", 0x102, NH_EN22);

	expect(&EV("uncore_ubox", 0x50, 0), 0, "ubox U2R_REQUESTS opens");
	expect(&EV(c, 0x14 | 0x100 | 1ULL << 23, 0), EINVAL, "cbox inv without a threshold refused");
	expect(&EV(c, 0x14 | 0x100 | 1ULL << 23 | 1ULL << 24, 0), 0, "cbox inv with a threshold opens");
	expect(&EV("uncore_wbox", 0xff, 0), 0, "wbox clockticks (fixed counter) opens");

	/* B-box: an event is a counter and a code (000:1177-1178). */
	expect(&EV(b, NH_B(3, 0x17), 0), 0, "bbox CONFLICTS on counter 3 opens");
	expect(&EV(b, NH_B(0, 0x17), 0), 0, "bbox DIRQ_OCCUPANCY (0x17 on counter 0) opens");
	expect(&EV(b, NH_B(3, 0x03), 0), EINVAL,
	       "bbox code 0x03 on counter 3 (the guide's own SNP_MERGE slip) refused");
	expect(&EV(b, NH_B(2, 0x05), 0), EINVAL, "bbox code 0x05 on counter 2 refused");
	expect(&EV(b, NH_B(3, 0x1f), 0), EINVAL, "bbox code 0x1f on counter 3 refused");
	expect(&EV3(b, NH_B(1, 0x01), 0x1ULL << 44, 0xfULL << 44), 0, "bbox MSG_IN_MATCH with match/mask opens");
	expect(&EV3(b, NH_B(1, 0x01), 1ULL << 60, 0), EINVAL, "bbox match bit 60 (reserved) refused");
	expect(&EV3(b, NH_B(1, 0x01), 0, 1ULL << 63), EINVAL, "bbox mask bit 63 (reserved) refused");
	expect(&EV3(b, NH_B(3, 0x17), 0x1, 0), EINVAL, "bbox match on an event that does not match refused");
	report(group3(&EV(b, NH_B(3, 0x17), 0), &EV(b, NH_B(3, 0x02), 0),
		      &EV(b, NH_B(0, 0x17), 0)) == EINVAL,
	       "bbox group of two counter-3 events refused", 0, EINVAL);

	/* S-box: match/mask for TO_R_PROG_EV only; one C-box for CYCLES_FULL. */
	expect(&EV3(s, 0x00, 0x12345, 0x7fULL << 1), 0, "sbox TO_R_PROG_EV with match/mask opens");
	expect(&EV3(s, 0x00, 0, 1ULL << 39), EINVAL, "sbox mask bit 39 (ignored by the part) refused");
	expect(&EV3(s, 0x09, 0x1, 0), EINVAL, "sbox match on another event refused");
	expect(&EV(s, 0x0e | 0x100, 0), 0, "sbox DRS CYCLES_FULL of one C-box opens");
	expect(&EV(s, 0x0e | 0x300, 0), EINVAL, "sbox DRS CYCLES_FULL of two C-boxes (undefined) refused");
	expect(&EV(s, 0x14 | 0xf00, 0), EINVAL, "sbox NCS CYCLES_FULL of all C-boxes refused");
	expect(&EV(s, 0x0f | 0xf00, 0), 0, "sbox DRS CYCLES_NE of all C-boxes opens");
	expect_group(&EV3(s, 0x00, 0x1, 0), &EV3(s, 0x00, 0x2, 0), EINVAL,
		     "sbox group of two matches with different values refused");

	/* R-box: ev_sel picks a port's sub-register (Tables 2-45/46). */
	for (i = 0x18; i <= 0x1f; i++)
		expect(&EV(r, NH_R(i), 0x1), EINVAL, "rbox ev_sel 0x%x (illegal) refused", i);
	expect(&EV(r, NH_R(0), 0x80000000), 0, "rbox port 0 IPERF flit sent opens");
	expect(&EV(r, NH_R(0), 0), EINVAL, "rbox IPERF selecting nothing refused");
	expect(&EV(r, NH_R(1), 1 << 22), EINVAL, "rbox IPERF bit 22 (ignored) refused");
	expect(&EV(r, NH_R(0) | NH_R_MM(0x210000), 0x1), EINVAL, "rbox xbr_mm_cfg on an IPERF event refused");
	expect(&EV(r, NH_R(8), 0x05), 0, "rbox port 1 QLX field 0 opens");
	expect(&EV(r, NH_R(9), 0x500), 0, "rbox port 1 QLX field 1 opens");
	expect(&EV(r, NH_R(8), 0x105), EINVAL, "rbox QLX field 0 with a field-1 bit refused");
	expect(&EV(r, NH_R(8), 0x10000), EINVAL, "rbox QLX bit 16 refused");
	expect(&EV3(r, NH_R(4) | NH_R_MM(0x210000), 0x1ULL << 5, 0xfULL << 5), 0,
	       "rbox XBR set 1 with mm_trig_en and an opcode match opens");
	expect(&EV3(r, NH_R(4) | NH_R_MM(0x010000), 0, 0), EINVAL, "rbox XBR without mm_trig_en refused");
	expect(&EV3(r, NH_R(5) | NH_R_MM(0x610000), 0, 0), EINVAL, "rbox XBR MM_CFG bit 22 refused");
	expect(&EV3(r, NH_R(5) | NH_R_MM(0x210000), 0x1, 0), EINVAL, "rbox XBR match bit 0 (reserved) refused");
	expect(&EV3(r, NH_R(5) | NH_R_MM(0x210000), 0, 1ULL << 40), EINVAL, "rbox XBR mask bit 40 (reserved) refused");
	report(group3(&EV(r, NH_R(0), 0x1), &EV(r, NH_R(0), 0x2), &EV(r, NH_R(1), 0x4)) == EINVAL,
	       "rbox group of three IPERF values on one port (two registers) refused", 0, EINVAL);
	report(group3(&EV(r, NH_R(0), 0x1), &EV(r, NH_R(1), 0x2), &EV(r, NH_R(6), 0x4)) == 0,
	       "rbox group of two IPERF values on one port and one on another opens", 0, 0);

	/* M-box [EXT]: sub-controls per event, address match for PLD only. */
	expect(&EV(m, NH_M_INC(0x1b), 0), 0, "mbox CYCLES opens");
	expect(&EV(m, NH_M_INC(0x1b), 0x1), EINVAL, "mbox sub-control value on an event without one refused");
	expect(&EV(m, NH_M_FLAG(0x3) | NH_M_INC(0x1), 0), EINVAL, "mbox flag_mode with an inc_sel refused");
	expect(&EV(m, NH_M_INC(0x1b) | 0x3ULL << 19, 0), EINVAL, "mbox set_flag_sel without flag_mode refused");
	expect(&EV(m, NH_M_INC(0xd), 0x2800), 0, "mbox bbox_cmds_read (FVC field 0) opens");
	expect(&EV(m, NH_M_INC(0xd), 0x4000), EINVAL, "mbox FVC value in another event's field refused");
	expect(&EV(m, NH_M_INC(0x9), 0x100000001ULL), EINVAL, "mbox ISS event with a second value refused");
	expect(&EV(m, NH_M_INC(0xa), 0x100000001ULL), 0, "mbox ISS+PLD event with two values opens");
	expect(&EV(m, NH_M_INC(0xb), 0x100000000ULL), 0, "mbox PLD event, pld in config1:32-63, opens");
	expect(&EV(m, NH_M_INC(0xb), 0x1), EINVAL, "mbox PLD event with a value in config1's low half refused");
	expect(&EV3(m, NH_M_INC(0xb), 0x100000000ULL, 1ULL << 63 | 0x1234), 0, "mbox PLD event with address match opens");
	expect(&EV3(m, NH_M_INC(0xb), 0x100000000ULL, 0x1234), EINVAL, "mbox address match without filter_cfg_en refused");
	expect(&EV3(m, NH_M_INC(0x1b), 0, 1ULL << 63), EINVAL, "mbox address match on a non-PLD event refused");

	/* Generic refusals. */
	e = EV(c, 0x14 | 0x100, 0);
	e.pid = 0;
	expect(&e, EINVAL, "per-task event refused");
	for (i = 0; i < 6; i++) {
		static const char * const names[] = { "user", "kernel", "hv",
						       "idle", "host", "guest" };

		e = EV(c, 0x14 | 0x100, 0);
		e.exclude = 1 << i;
		expect(&e, EINVAL, "exclude_%s refused", names[i]);
	}
	e = EV(c, 0x14 | 0x100, 0);
	e.sample_period = 100000;
	expect(&e, 0, "sampling on a C-box (timer sampling) opens");
	e.precise_ip = 1;
	expect(&e, EOPNOTSUPP, "precise sampling refused with EOPNOTSUPP");
	report(group3(&EV(c, 0x14 | 0x100, 0), &EV(c, 0x14 | 0x200, 0),
		      &EV(c, 0x14 | 0x400, 0)) == 0, "cbox group of three opens", 0, 0);
	expect(&EV("uncore_pcu", 0x0, 0), ENOENT, "no Broadwell PMU here");
	return failures ? 1 : 0;
}

/*
 * K8 northbridge: uncore_nb validates what the core PMU, which counts its
 * events, would pass through unchecked (BKDG 26094 ch. 10, seed 004).
 * Opening a refused event writes nothing; an accepted one is handed to the
 * core PMU (the stand-in in the guest) and opens there. @rev is CPUID's
 * extended model: 1 rev D, 2 and more rev E and later.
 */
#define K8(ev, um) ((uint64_t)(ev) | (uint64_t)(um) << 8)

static int k8_matrix(int rev)
{
	const char *nb = "uncore_nb";
	static const uint8_t e9_ok[] = { 0xa8, 0x61, 0xb8, 0xf4, 0xec };
	static const uint8_t e9_bad[] = { 0x08, 0x80, 0xa0, 0x68, 0x60, 0x88, 0x28 };
	struct ev e;
	int i;

	reserved_bits(nb, K8(0xe0, 0x01), K8_EN);
	expect(&EV(nb, K8(0xe0, 0x07), 0), 0, "nb DRAM accesses, every unit mask, opens");
	expect(&EV(nb, K8(0xe0, 0x08), 0), EINVAL, "nb DRAM accesses unit mask 08h (not listed) refused");
	expect(&EV(nb, K8(0xe0, 0x00), 0), EINVAL, "nb DRAM accesses without a unit mask (counts nothing) refused");
	expect(&EV(nb, K8(0xe1, 0x00), 0), 0, "nb page table overflows (no unit mask table) opens");
	expect(&EV(nb, K8(0xe1, 0x01), 0), EINVAL, "nb page table overflows with a unit mask refused");
	expect(&EV(nb, K8(0xeb, 0x80), 0), EINVAL, "nb sized commands unit mask 80h refused");
	expect(&EV(nb, K8(0xf6, 0x0f), 0), 0, "nb HT link 0, all four dword kinds, opens");
	expect(&EV(nb, K8(0xf6, 0x10), 0), EINVAL, "nb HT link 0 unit mask 10h refused");
	expect(&EV(nb, K8(0xe2, 0x01), 0), EINVAL, "nb code E2h (not in the BKDG) refused");
	expect(&EV(nb, K8(0xff, 0x01), 0), EINVAL, "nb code FFh (not in the BKDG) refused");
	expect(&EV(nb, K8(0x76, 0x00), 0), EINVAL, "nb core event 76h (cycles) refused");
	expect(&EV(nb, K8(0xe0, 0x01) | 3ULL << 24, 0), 0, "nb cmask 3 opens");
	expect(&EV(nb, K8(0xe0, 0x01) | 4ULL << 24, 0), EINVAL, "nb cmask 4 (reserved, 004:72) refused");
	expect(&EV(nb, K8(0xe0, 0x01) | 0xffULL << 24, 0), EINVAL, "nb cmask 255 refused");
	expect(&EV(nb, K8(0xe0, 0x01) | 1ULL << 23, 0), EINVAL, "nb inv without cmask (undefined) refused");
	expect(&EV(nb, K8(0xe0, 0x01) | 1ULL << 23 | 1ULL << 24, 0), 0, "nb inv with cmask opens");
	expect(&EV(nb, K8(0xe0, 0x01) | 1ULL << 18, 0), 0, "nb edge opens");

	/* E9h: ORs of the listed paths only (004:614-625); rev E. */
	for (i = 0; i < (int)(sizeof(e9_ok) / sizeof(e9_ok[0])); i++)
		expect(&EV(nb, K8(0xe9, e9_ok[i]), 0), rev >= 2 ? 0 : EINVAL,
		       "nb E9h unit mask %02xh %s", e9_ok[i], rev >= 2 ? "opens" : "refused before rev E");
	for (i = 0; i < (int)(sizeof(e9_bad) / sizeof(e9_bad[0])); i++)
		expect(&EV(nb, K8(0xe9, e9_bad[i]), 0), EINVAL,
		       "nb E9h unit mask %02xh (no such path) refused", e9_bad[i]);
	expect(&EV(nb, K8(0xe5, 0x03), 0), EINVAL, "nb sized blocks 01h/02h (not listed) refused");
	expect(&EV(nb, K8(0xea, 0x02), 0), EINVAL, "nb cache block commands 02h (not listed) refused");

	/* Generic refusals, which the core PMU would not make. */
	e = EV(nb, K8(0xe0, 0x01), 0);
	e.pid = 0;
	expect(&e, EINVAL, "nb per-task event refused");
	for (i = 0; i < 6; i++) {
		static const char * const names[] = { "user", "kernel", "hv",
						       "idle", "host", "guest" };

		e = EV(nb, K8(0xe0, 0x01), 0);
		e.exclude = 1 << i;
		expect(&e, EINVAL, "nb exclude_%s refused", names[i]);
	}
	e = EV(nb, K8(0xe0, 0x01), 0);
	e.sample_period = 100000;
	expect(&e, EOPNOTSUPP, "nb sampling refused with EOPNOTSUPP");
	e.sample_period = 0;
	e.precise_ip = 1;
	expect(&e, EOPNOTSUPP, "nb precise_ip refused with EOPNOTSUPP");
	report(group3(&EV(nb, K8(0xe0, 0x01), 0), &EV(nb, K8(0xe0, 0x02), 0),
		      &EV(nb, K8(0xf6, 0x02), 0)) == 0,
	       "nb group of three opens (on the core PMU)", 0, 0);
	expect(&EV("uncore_cbox_0", 0x0, 0), ENOENT, "no Intel uncore PMU here");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	/* The default simulated machine: CBo 0 only on package 0 (CPUs 0-3). */
	const char *pkg0_only = argc > 1 ? argv[1] : "uncore_cbox_0";
	int other_pkg_cpu = argc > 2 ? atoi(argv[2]) : 4;
	const char *cbo = "uncore_cbox_3";
	struct ev e;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "p4mp"))
		return p4mp_matrix();
	if (argc > 1 && !strcmp(argv[1], "nhmex"))
		return nhmex_matrix();
	if (argc > 2 && !strcmp(argv[1], "k8"))
		return k8_matrix(atoi(argv[2]));

	reserved_bits(cbo, 0x0835, BDX_EN);
	reserved_bits("uncore_ubox", 0x0842, BDX_EN);
	reserved_bits("uncore_pcu", 0x0000, BDX_EN);
	reserved_bits("uncore_sbox_0", 0x0401, BDX_EN);
	reserved_bits("uncore_imc_0", 0x0304, BDX_EN);
	/* What Intel PCM passes: the control value it would write itself. */
	expect(&EV("uncore_imc_0", 0x400304, 0), 0, "imc CAS_COUNT.RD with en (pcm-memory's 0x400304) opens");
	expect(&EV("uncore_imc_0", 0x400000, 0), 0, "imc en alone (pcm's first write: DCLK) opens");
	expect(&EV("uncore_imc_0", 0x420304, 0), EINVAL, "imc with rst (17) refused");
	expect(&EV("uncore_imc_0", 0x500304, 0), EINVAL, "imc with ov_en (20) refused");

	expect(&EV(cbo, 0x0835, 0), 0, "cbox TOR_INSERTS.ALL opens");
	expect(&EV(cbo, 0x0335, 0), 0, "cbox MISS_OPCODE without filter_opc opens (opcode 0)");
	expect(&EV(cbo, 0x0335, 0x182ULL << 52), 0, "cbox MISS_OPCODE, filter_opc=0x182 (README) opens");
	expect(&EV(cbo, 0x0135, 0x182ULL << 52), 0, "cbox opcode filter 0x182 opens");
	expect(&EV(cbo, 0x0135, 0x100ULL << 52), EINVAL, "cbox opcode 0x100 (top bits not 0b11) refused");
	expect(&EV(cbo, 0x0135, 0x17fULL << 52), EINVAL, "cbox opcode 0x17f (top bits 0b10) refused");
	expect(&EV(cbo, 0x0135, 0x07fULL << 52), EINVAL, "cbox opcode 0x07f refused");
	expect(&EV(cbo, 0x0835, 0x182ULL << 52), EINVAL, "cbox opcode filter on a non-opcode subevent refused");
	expect(&EV(cbo, 0x0835, 1ULL << 17), EINVAL, "cbox state filter on TOR_INSERTS refused");
	expect(&EV(cbo, 0x0835, 1ULL << 62), EINVAL, "cbox nc without an opcode match refused");
	expect(&EV(cbo, 0x0835, 0x1e), 0, "cbox filter_tid alone opens (it implies tid_en)");
	expect(&EV(cbo, 0x0835 | (1 << 19), 0x1e), 0, "cbox tid_en with filter_tid opens");
	expect(&EV(cbo, 0x1134, 0x1ULL << 17), 0, "cbox LLC_LOOKUP with a state opens");
	expect(&EV(cbo, 0x0835 | (1 << 23), 0), EINVAL, "cbox invert without threshold refused");
	expect(&EV(cbo, 0x0835 | (1 << 18), 0), EINVAL, "cbox edge without threshold refused");
	expect(&EV(cbo, 0x01000835 | (1 << 18) | (1 << 23), 0), 0, "cbox edge+invert with threshold opens");
	expect(&EV("uncore_ubox", 0xff, 0), 0, "ubox fixed UCLK counter opens");
	expect(&EV("uncore_ubox", 0xff, 1), EINVAL, "ubox fixed counter with config1 refused");
	expect(&EV("uncore_pcu", 0x80, 0), EINVAL, "pcu occupancy without occ_sel refused");
	expect(&EV("uncore_pcu", 0x4080, 0), 0, "pcu occupancy C0 opens");
	expect(&EV("uncore_pcu", 0x4080 | (1U << 30), 0), EINVAL, "pcu occ_invert without threshold refused");
	expect(&EV("uncore_pcu", 0x400b, 0), EINVAL, "pcu occ_sel on a band event refused");
	expect(&EV("uncore_pcu", 0x0b, 0x14ULL << 8), EINVAL, "pcu band0 event with band1 filter refused");
	expect(&EV("uncore_pcu", 0x0b, 0x14), 0, "pcu band0 event with band0 filter opens");
	expect(&EV("uncore_pcu", 0x00, 0x14), EINVAL, "pcu band filter on clockticks refused");
	expect(&EV("uncore_sbox_0", 0x0401 | (1 << 19), 0), EINVAL, "sbox tid_en (no filter register) refused");

	/* Per-task, sampling, exclude bits. */
	e = EV(cbo, 0x0835, 0);
	e.pid = 0;
	expect(&e, EINVAL, "per-task event refused");
	e = EV(cbo, 0x0835, 0);
	e.sample_period = 100000;
	expect(&e, 0, "sampling on a CBo (no overflow interrupt: timer sampling) opens");
	e.precise_ip = 1;
	expect(&e, EOPNOTSUPP, "precise sampling on a CBo refused with EOPNOTSUPP");
	e = EV("uncore_ha_0", 0x0301, 0);
	e.sample_period = 100000;
	expect(&e, 0, "sampling on an HA (overflow interrupt) opens");
	e.precise_ip = 2;
	expect(&e, EOPNOTSUPP, "precise sampling on an HA refused with EOPNOTSUPP");
	for (i = 0; i < 6; i++) {
		static const char * const names[] = { "user", "kernel", "hv",
						       "idle", "host", "guest" };

		e = EV(cbo, 0x0835, 0);
		e.exclude = 1 << i;
		expect(&e, EINVAL, "exclude_%s refused", names[i]);
	}

	/* A box that does not exist in the other package. */
	e = EV(pkg0_only, 0x0835, 0);
	e.cpu = other_pkg_cpu;
	expect(&e, ENODEV, "%s on CPU %d (package without that CBo) refused with ENODEV",
	       pkg0_only, other_pkg_cpu);
	expect(&EV("uncore_nonexistent", 0, 0), ENOENT, "unknown PMU refused");

	/* Groups that can never be scheduled together. */
	expect_group(&EV(cbo, 0x0136, 0), &EV(cbo, 0x0111, 0), EINVAL,
		     "group of two counter-0-only events refused");
	expect_group(&EV(cbo, 0x0135, 0x182ULL << 52),
		     &EV(cbo, 0x0135, 0x180ULL << 52), EINVAL,
		     "group of two events needing different opcode filters refused");
	expect_group(&EV(cbo, 0x0135, 0x182ULL << 52),
		     &EV(cbo, 0x0335, 0x182ULL << 52), 0,
		     "group sharing one opcode filter opens");
	expect_group(&EV("uncore_pcu", 0x0b, 0x14),
		     &EV("uncore_pcu", 0x0c, 0x20ULL << 8), 0,
		     "group of two band events on different bytes opens");

	return failures ? 1 : 0;
}
