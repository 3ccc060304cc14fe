// SPDX-License-Identifier: GPL-2.0
/*
 * soakstat: the counting and sampling sessions of the stress tests
 * (tests/vm/bdx/t_96 to t_99), without perf's start-up cost.
 *
 * soakstat count EVENT... -- CMD...
 *	EVENT is PMU/CONFIG[/CONFIG1][:PERIOD]. Opens each event on every CPU
 *	of its PMU's cpumask (a sampling event, of period PERIOD, with a ring
 *	buffer large enough that it never fills), runs CMD, and prints per
 *	event and CPU: "INDEX CPU COUNT ENABLED RUNNING SAMPLES OTHER LOST",
 *	INDEX counting events from 0 in argument order, SAMPLES the samples
 *	of period PERIOD in the buffer, OTHER those of another period and
 *	LOST the samples perf reported lost (all 0 for a counting event).
 *	CPU is the CPU the event was opened on: its package's reading CPU
 *	then, wherever hotplug moved it since.
 *
 * soakstat mux [-m MS] [-i INJECT] [-a NS] [-t PREFIX] SESSIONS SECONDS PMU CONFIG...
 *	SESSIONS processes ("sessions") each open one event on PMU, on the
 *	first CPU of its cpumask, disabled: session S the CONFIG numbered
 *	S mod (number of CONFIGs), from 0. Each passes the parent a copy of
 *	its file descriptor; then all enable their events together and the
 *	box multiplexes, perf rotating the events every MS ms
 *	(perf_event_mux_interval_ms for the run; as it is by default).
 *	Phase A: two intervals later the parent reads every event, SECONDS
 *	later again. Then each session reads its event, as perf stat would
 *	at its end. Phase B: the rotation is stopped (interval 2 s, and a
 *	wait past the old one), the simulator's clock frozen, the parent
 *	reads every event, writes INJECT to the simulator's inject file and
 *	advances its clock NS, and reads every event again. Prints "W A0 A1
 *	B0 B1 E0 E1", CLOCK_MONOTONIC ns before and after each of phase A's
 *	two reading loops and around the sessions' enabling; per session S
 *	of CONFIG number E, "A S E DCOUNT DENABLED DRUNNING" between phase
 *	A's two reads, "S S E COUNT ENABLED RUNNING" the session's own
 *	reading, and "B S E DCOUNT DENABLED DRUNNING" between phase B's two
 *	reads. With -t, also "T TOTAL COUNT" at the end of phase B, the
 *	clock still frozen: TOTAL the sum of the unwrapped totals ("total=")
 *	of the simulator's state lines that start with PREFIX (the box's
 *	counters), COUNT the sum of every session's count since it was
 *	enabled. t_98_mux.sh checks them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HELPER "soakstat"
#include "pmu_sysfs.h"

#define SIM "/sys/kernel/debug/uncore_sim/"
#define MAX_CPUS 256
#define MAX_EVENTS 16
#define MAX_SESSIONS 128
/* Ring buffer data pages of a sampling event: 1 MiB, 64 Ki samples. */
#define RING_PAGES 256
/* Phase B's rotation interval: long enough for its reads. */
#define MUX_STOP_MS 2000

struct value {
	uint64_t count, enabled, running;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t len = strlen(s);

	if (fd < 0 || write(fd, s, len) != len)
		die(path);
	close(fd);
}

static int open_event(const char *pmu, uint64_t config, uint64_t config1,
		      uint64_t period, int cpu, int disabled)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = first_number(pmu, "type");
	attr.config = config;
	attr.config1 = config1;
	attr.disabled = disabled;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (period) {
		attr.sample_period = period;
		attr.sample_type = PERF_SAMPLE_PERIOD;
		attr.wakeup_events = 1u << 30;
	}
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
	if (fd < 0)
		die("perf_event_open");
	return fd;
}

static void read_value(int fd, struct value *v)
{
	if (read(fd, v, sizeof(*v)) != sizeof(*v))
		die("read");
}

/* The CPUs of a PMU's cpumask ("0,4" or "0-3"), at most MAX_CPUS. */
static int pmu_cpus(const char *pmu, int *cpus)
{
	char path[256], buf[1024], *s;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS "%s/cpumask", pmu);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	for (s = buf; *s && *s != '\n' && n < MAX_CPUS;) {
		int lo = strtol(s, &s, 10), hi = lo;

		if (*s == '-')
			hi = strtol(s + 1, &s, 10);
		while (lo <= hi && n < MAX_CPUS)
			cpus[n++] = lo++;
		if (*s == ',')
			s++;
	}
	return n;
}

struct ring_count {
	uint64_t samples, other, lost;
};

/*
 * Walk a ring buffer that never wrapped (nothing consumed it, and it is
 * larger than the run's samples; a full one would show as lost).
 */
static void ring_count(void *ring, uint64_t period, struct ring_count *rc)
{
	struct perf_event_mmap_page *pg = ring;
	char *data = (char *)ring + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t off = 0;

	memset(rc, 0, sizeof(*rc));
	if (head > pg->data_size)
		die("ring buffer wrapped");
	while (off < head) {
		struct perf_event_header *h = (void *)(data + off);
		uint64_t *body = (void *)(h + 1);

		if (h->type == PERF_RECORD_SAMPLE) {
			if (body[0] == period)
				rc->samples++;
			else
				rc->other++;
		} else if (h->type == PERF_RECORD_LOST) {
			rc->lost += body[1];
		}
		if (!h->size)
			die("ring record of size 0");
		off += h->size;
	}
}

static int count_main(int argc, char **argv)
{
	static int fds[MAX_EVENTS][MAX_CPUS], cpus[MAX_EVENTS][MAX_CPUS];
	static void *rings[MAX_EVENTS][MAX_CPUS];
	uint64_t periods[MAX_EVENTS];
	size_t ring_len = (RING_PAGES + 1) * sysconf(_SC_PAGESIZE);
	int ncpus[MAX_EVENTS], nev = 0, i, j, status;
	pid_t pid;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		char pmu[128], *conf = strchr(argv[i], '/');
		uint64_t config, config1 = 0;

		if (!conf || conf - argv[i] >= (long)sizeof(pmu) || nev == MAX_EVENTS)
			die("event: want PMU/CONFIG[/CONFIG1][:PERIOD]");
		memcpy(pmu, argv[i], conf - argv[i]);
		pmu[conf - argv[i]] = 0;
		config = strtoull(conf + 1, &conf, 0);
		if (*conf == '/')
			config1 = strtoull(conf + 1, &conf, 0);
		periods[nev] = *conf == ':' ? strtoull(conf + 1, NULL, 0) : 0;
		ncpus[nev] = pmu_cpus(pmu, cpus[nev]);
		for (j = 0; j < ncpus[nev]; j++) {
			fds[nev][j] = open_event(pmu, config, config1, periods[nev],
						 cpus[nev][j], 0);
			if (!periods[nev])
				continue;
			rings[nev][j] = mmap(NULL, ring_len, PROT_READ | PROT_WRITE,
					     MAP_SHARED, fds[nev][j], 0);
			if (rings[nev][j] == MAP_FAILED)
				die("mmap");
		}
		nev++;
	}
	if (i + 1 >= argc)
		die("usage: soakstat count EVENT... -- CMD...");

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execvp(argv[i + 1], argv + i + 1);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		die("fork");

	for (i = 0; i < nev; i++) {
		for (j = 0; j < ncpus[i]; j++) {
			struct ring_count rc = { 0 };
			struct value v;

			read_value(fds[i][j], &v);
			if (periods[i])
				ring_count(rings[i][j], periods[i], &rc);
			printf("%d %d %llu %llu %llu %llu %llu %llu\n", i, cpus[i][j],
			       (unsigned long long)v.count,
			       (unsigned long long)v.enabled,
			       (unsigned long long)v.running,
			       (unsigned long long)rc.samples,
			       (unsigned long long)rc.other,
			       (unsigned long long)rc.lost);
			close(fds[i][j]);
		}
	}
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

/*
 * The mux sessions' steps: the parent holds the write end of one pipe per
 * step and closes it to start that step in every session at once; the
 * sessions answer on one shared pipe, a byte each when done.
 */
enum { GO_ENABLE, GO_REPORT, GO_EXIT, N_GO };

static int go[N_GO][2], done[2], sock[2];

static void wait_go(int step)
{
	char c;

	if (read(go[step][0], &c, 1) != 0)
		die("go");
}

static void say_done(void)
{
	if (write(done[1], "", 1) != 1)
		die("done");
}

static void wait_done(int sessions)
{
	char c;
	int i;

	for (i = 0; i < sessions; i++)
		if (read(done[0], &c, 1) != 1)
			die("a session ended early");
}

/* Session S's descriptor to the parent, S as the message's data. */
static void send_fd(int s, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &s, sizeof(s) };
	struct msghdr msg = { 0 };
	struct cmsghdr *c;

	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock[1], &msg, 0) != sizeof(s))
		die("sendmsg");
}

/* A session's descriptor, into fds[S]. */
static int fds[MAX_SESSIONS];

static void recv_fd(void)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr msg = { 0 };
	struct cmsghdr *c;
	int s = -1;
	struct iovec iov = { &s, sizeof(s) };

	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	if (recvmsg(sock[0], &msg, 0) != sizeof(s) || s < 0 || s >= MAX_SESSIONS)
		die("recvmsg");
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int)))
		die("recvmsg: descriptor");
	memcpy(&fds[s], CMSG_DATA(c), sizeof(int));
}

static void session(int s, const char *pmu, int cpu, uint64_t *configs, int nev)
{
	struct value v;
	char line[256];
	int fd, i, len;

	for (i = 0; i < N_GO; i++)
		close(go[i][1]);
	close(done[0]);
	close(sock[0]);
	fd = open_event(pmu, configs[s % nev], 0, 0, cpu, 1);
	send_fd(s, fd);

	wait_go(GO_ENABLE);
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		die("enable");
	say_done();

	wait_go(GO_REPORT);
	read_value(fd, &v);
	len = snprintf(line, sizeof(line), "S %d %d %llu %llu %llu\n", s, s % nev,
		       (unsigned long long)v.count, (unsigned long long)v.enabled,
		       (unsigned long long)v.running);
	/* One write: the sessions' reports do not interleave (PIPE_BUF). */
	if (write(1, line, len) != len)
		die("write");
	say_done();

	wait_go(GO_EXIT);
	_exit(0);
}

/* Read every session's event into v, in one quick loop. */
static void read_all(int sessions, struct value *v)
{
	int s;

	for (s = 0; s < sessions; s++)
		read_value(fds[s], &v[s]);
}

static void print_delta(const char *tag, int sessions, int nev, struct value *a,
			struct value *b)
{
	int s;

	for (s = 0; s < sessions; s++)
		printf("%s %d %d %llu %llu %llu\n", tag, s, s % nev,
		       (unsigned long long)(b[s].count - a[s].count),
		       (unsigned long long)(b[s].enabled - a[s].enabled),
		       (unsigned long long)(b[s].running - a[s].running));
}

#define MUX_USAGE \
	"usage: soakstat mux [-m MS] [-i INJECT] [-a NS] [-t PREFIX] SESSIONS SECONDS PMU CONFIG..."

/* The sum of "total=" over the simulator's state lines starting with prefix. */
static uint64_t sim_total(const char *prefix)
{
	FILE *f = fopen(SIM "state", "r");
	uint64_t sum = 0;
	char line[512];
	char *t;

	if (!f)
		die(SIM "state");
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		t = strstr(line, " total=");
		if (!t)
			die("state: a counter line without total=");
		sum += strtoull(t + 7, NULL, 10);
	}
	fclose(f);
	return sum;
}

static int mux_main(int argc, char **argv)
{
	static struct value v0[MAX_SESSIONS], v1[MAX_SESSIONS];
	const char *inject = NULL, *advance = NULL, *total = NULL, *pmu;
	uint64_t configs[MAX_EVENTS], w[6], stop;
	int sessions, nev, i, opt, status, fail = 0, cpu;
	char muxfile[256], buf[64];
	long mux = 0, old_mux, left;
	double secs;

	while ((opt = getopt(argc, argv, "m:i:a:t:")) != -1) {
		switch (opt) {
		case 'm':
			mux = atol(optarg);
			break;
		case 'i':
			inject = optarg;
			break;
		case 'a':
			advance = optarg;
			break;
		case 't':
			total = optarg;
			break;
		default:
			die(MUX_USAGE);
		}
	}
	if (argc - optind < 4 || argc - optind - 3 > MAX_EVENTS)
		die(MUX_USAGE);
	sessions = atoi(argv[optind]);
	if (sessions < 1 || sessions > MAX_SESSIONS)
		die("sessions: 1 to 128");
	secs = atof(argv[optind + 1]);
	pmu = argv[optind + 2];
	nev = argc - optind - 3;
	for (i = 0; i < nev; i++)
		configs[i] = strtoull(argv[optind + 3 + i], NULL, 0);
	cpu = first_number(pmu, "cpumask");
	snprintf(muxfile, sizeof(muxfile), SYSFS "%s/perf_event_mux_interval_ms", pmu);
	old_mux = first_number(pmu, "perf_event_mux_interval_ms");
	if (mux) {
		snprintf(buf, sizeof(buf), "%ld\n", mux);
		write_file(muxfile, buf);
	} else {
		mux = old_mux;
	}

	for (i = 0; i < N_GO; i++)
		if (pipe(go[i]))
			die("pipe");
	if (pipe(done) || socketpair(AF_UNIX, SOCK_DGRAM, 0, sock))
		die("pipe");
	fflush(stdout);
	for (i = 0; i < sessions; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0)
			session(i, pmu, cpu, configs, nev);
	}
	close(done[1]);
	/* A session that dies leaves the others waiting: end them all. */
	alarm(secs + 600);
	for (i = 0; i < sessions; i++)
		recv_fd();

	/* Phase A: the sessions' events multiplexed, read twice. */
	w[4] = now_ns();
	close(go[GO_ENABLE][1]);
	wait_done(sessions);
	w[5] = now_ns();
	sleep_ms(2 * mux);
	w[0] = now_ns();
	read_all(sessions, v0);
	w[1] = now_ns();
	sleep_ms(secs * 1000);
	w[2] = now_ns();
	read_all(sessions, v1);
	w[3] = now_ns();
	printf("W %llu %llu %llu %llu %llu %llu\n", (unsigned long long)w[0],
	       (unsigned long long)w[1], (unsigned long long)w[2],
	       (unsigned long long)w[3], (unsigned long long)w[4],
	       (unsigned long long)w[5]);
	print_delta("A", sessions, nev, v0, v1);
	fflush(stdout);
	close(go[GO_REPORT][1]);
	wait_done(sessions);

	/*
	 * Phase B: stop the rotation for MUX_STOP_MS. The new interval takes
	 * effect when perf's timer next fires, at most one old interval from
	 * now: wait three, and 100 ms more for a late timer; the reads that
	 * follow take milliseconds.
	 */
	snprintf(buf, sizeof(buf), "%d\n", MUX_STOP_MS);
	write_file(muxfile, buf);
	stop = now_ns();
	sleep_ms(3 * mux + 100);
	write_file(SIM "clock", "freeze\n");
	read_all(sessions, v0);
	if (inject)
		write_file(SIM "inject", inject);
	if (advance) {
		snprintf(buf, sizeof(buf), "advance %s\n", advance);
		write_file(SIM "clock", buf);
	}
	read_all(sessions, v1);
	if (total) {
		uint64_t sum = 0;

		for (i = 0; i < sessions; i++)
			sum += v1[i].count;
		printf("T %llu %llu\n", (unsigned long long)sim_total(total),
		       (unsigned long long)sum);
	}
	write_file(SIM "clock", "run\n");
	snprintf(buf, sizeof(buf), "%ld\n", old_mux);
	write_file(muxfile, buf);
	print_delta("B", sessions, nev, v0, v1);

	/*
	 * perf (6.1) arms the rotation timer of every online CPU when the
	 * interval is written, and perf_pmu_unregister() frees the CPU
	 * contexts without cancelling it: a timer still armed when the
	 * driver unloads corrupts the CPU's timer queue. Those armed with
	 * the long interval have expired once it has passed, and the others
	 * within an interval of the last close.
	 */
	left = MUX_STOP_MS + 500 - (long)((now_ns() - stop) / 1000000);
	if (left > 0)
		sleep_ms(left);
	close(go[GO_EXIT][1]);
	while (wait(&status) > 0)
		fail |= !WIFEXITED(status) || WEXITSTATUS(status);
	for (i = 0; i < sessions; i++)
		close(fds[i]);
	sleep_ms(3 * old_mux + 100);
	return fail;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "count"))
		return count_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "mux"))
		return mux_main(argc - 1, argv + 1);
	fprintf(stderr, "usage: soakstat count EVENT... -- CMD...\n       " MUX_USAGE "\n");
	return 2;
}
