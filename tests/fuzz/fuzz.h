/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore_fuzz: what its two files share. uncore_fuzz.c has the options,
 * the discovery of the PMUs, the workers (perf_event_open(2) and what
 * follows it) and the table; chaos.c the operations on the machine: the
 * simulator's injections, CPU hotplug, PCI unbind and the driver's module
 * parameters.
 *
 * Determinism: every participant (a worker thread, or the chaos thread)
 * has its own PRNG, seeded from the seed and its number, and draws one
 * number per operation from it, which seeds the operation's own PRNG. So
 * a participant's operations are the same for the same seed and options
 * whatever the kernel answered; only their results may differ.
 */
#ifndef UNCORE_FUZZ_H
#define UNCORE_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define MAX_PMUS	128
#define MAX_FIELDS	48
#define MAX_ALIASES	64
#define MAX_CPUS	64
#define MAX_PROCS	8
#define MAX_THREADS	8
#define MAX_SLOTS	64
/* Workers, then the chaos participant. */
#define MAX_PARTS	(MAX_PROCS * MAX_THREADS + 1)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define PMUS_DIR	"/sys/bus/event_source/devices/"
#define SIM_DIR		"/sys/kernel/debug/uncore_sim/"

/* xoshiro256** */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rnd(struct rng *r);
uint64_t below(struct rng *r, uint64_t n);
bool chance(struct rng *r, unsigned int pct);
uint64_t rnd_bits(struct rng *r, unsigned int bits);

/**
 * struct field - one file of a PMU's format/ directory
 * @name: the file's name ("umask")
 * @word: 0 config, 1 config1, 2 config2
 * @nr: ranges
 * @lo: first bit of each range
 * @hi: last bit of each range
 * @width: bits in all, the value's low bits filling the ranges in order
 */
struct field {
	char name[32];
	int word;
	int nr;
	uint8_t lo[8];
	uint8_t hi[8];
	int width;
};

/**
 * struct alias - one file of a PMU's events/ directory, encoded
 * @cfg: config, config1, config2
 * @event: the "event" term, -1 if none
 * @umask: the "umask" term, -1 if none
 */
struct alias {
	uint64_t cfg[3];
	int64_t event;
	int64_t umask;
};

/**
 * struct pmu - an uncore PMU as found at start
 * @name: "uncore_cbox_3"
 * @stem: the name without "uncore_" and an index suffix ("cbox")
 * @idx: the index suffix, -1 if none
 * @f: format fields
 * @nf: how many
 * @used: per config word, the bits some field covers
 * @a: aliases (at most MAX_ALIASES, spread over the sorted list)
 * @na: how many
 */
struct pmu {
	char name[64];
	char stem[32];
	int idx;
	struct field f[MAX_FIELDS];
	int nf;
	uint64_t used[3];
	struct alias a[MAX_ALIASES];
	int na;
};

/* Operations: tried and succeeded, per participant. */
enum op_kind {
	K_OPEN_SW,
	K_CLOSE,
	K_IOC_ENABLE,
	K_IOC_DISABLE,
	K_IOC_RESET,
	K_IOC_REFRESH,
	K_IOC_PERIOD,
	K_IOC_SET_OUTPUT,
	K_IOC_SET_FILTER,
	K_IOC_ID,
	K_IOC_PAUSE_OUTPUT,
	K_IOC_SET_BPF,
	K_IOC_MODIFY,
	K_IOC_BOGUS,
	K_READ,
	K_MMAP,
	K_MUNMAP,
	K_DRAIN,
	K_POLL,
	K_FORK,
	K_FCNTL,
	K_PRCTL,
	K_SLEEP,
	/* chaos */
	K_INJECT,
	K_BURST,
	K_PRELOAD,
	K_STORM,
	K_CLOCK,
	K_OFFLINE,
	K_ONLINE,
	K_UNBIND,
	K_REBIND,
	K_PARAM,
	K_HALT,
	K_RATE,
	K_NR,
};

/* Things counted. */
enum counter_id {
	C_OPS,
	C_SYSCALLS,
	C_ERRORS,
	C_SAMPLES,
	C_LOST_RECORDS,
	C_LOST,
	C_THROTTLE,
	C_UNTHROTTLE,
	C_OTHER_RECORDS,
	C_BAD_RECORDS,
	C_BAD_READS,
	C_SIGIO,
	C_SIGTRAP,
	C_CLEANUP_FAILED,
	C_NR,
};

/* Why uncore opens failed: these errnos, then the rest. */
#define OPEN_ERRNOS	{ EINVAL, ENOENT, ENODEV, EOPNOTSUPP, E2BIG, EACCES, EBADF }
#define NR_OPEN_ERR	8

struct stats {
	uint64_t open_err[NR_OPEN_ERR];
	uint64_t tries[K_NR];
	uint64_t ok[K_NR];
	uint64_t c[C_NR];
	uint64_t opens[MAX_PMUS];
	uint64_t open_ok[MAX_PMUS];
};

/**
 * struct part_state - what a participant does now, for the watchdog
 * @tid: its thread
 * @start_ns: when its current operation began, 0 between operations
 * @nop: operations done
 * @op: the current operation
 */
struct part_state {
	pid_t tid;
	uint64_t start_ns;
	uint64_t nop;
	char op[240];
};

/**
 * struct shared - memory shared by every process of the run
 * @stop: everyone stops at the next operation
 * @log_gen: bumped when the log is rotated: reopen it
 * @type: per PMU, its type now (-1: gone), kept fresh by chaos
 * @cpumask: per PMU, its cpumask now
 * @ps: per participant
 * @st: per participant
 */
struct shared {
	volatile int stop;
	volatile int log_gen;
	volatile int type[MAX_PMUS];
	volatile uint64_t cpumask[MAX_PMUS];
	struct part_state ps[MAX_PARTS];
	struct stats st[MAX_PARTS];
};

/* Options. */
struct cfg {
	uint64_t seed;
	unsigned int seconds;
	uint64_t ops;
	const char *log;
	unsigned int log_max_mb;
	unsigned int procs;
	unsigned int threads;
	unsigned int slots;
	unsigned int grace;
	unsigned int pause_ms;
	bool chaos;
	bool inject;
	bool hotplug;
	bool unbind;
	bool params;
	char part[16];
};

/**
 * struct ctx - a participant
 * @id: its number (workers first, chaos last)
 * @r: its PRNG: one draw per operation
 * @st: its statistics
 * @ps: its state for the watchdog
 * @logfd: its log, -1 if none
 * @log_gen: the rotation its @logfd belongs to
 * @nop: operations done
 * @quota: operations to do (UINT64_MAX: no limit)
 */
struct ctx {
	int id;
	struct rng r;
	struct stats *st;
	struct part_state *ps;
	int logfd;
	int log_gen;
	uint64_t nop;
	uint64_t quota;
};

extern struct cfg cfg;
extern struct pmu *pmus;
extern int npmus;
extern struct shared *sh;
extern int ncpus;
extern int npkgs;
extern int pkg_of[MAX_CPUS];
extern uint64_t deadline_ns;

uint64_t now_ns(void);
const char *err_name(int err);
void logop(struct ctx *c, const char *fmt, ...) __printf(2, 3);
void op_begin(struct ctx *c, const char *fmt, ...) __printf(2, 3);
void op_end(struct ctx *c);
int write_file(const char *path, const char *buf);
int read_file(const char *path, char *buf, size_t len);
void kmsg(const char *fmt, ...) __printf(1, 2);
bool should_stop(struct ctx *c);
void msleep(unsigned int ms);
uint64_t parse_cpulist(const char *s);
char **list_dir(const char *dir, int *n);
void free_list(char **names, int n);
int pick_cpu(struct rng *r, uint64_t mask);

/* chaos.c */
void chaos_init(void);
void chaos_step(struct ctx *c, struct rng *o);
void chaos_cleanup(struct ctx *c);
void refresh_pmus(void);

#endif /* UNCORE_FUZZ_H */
