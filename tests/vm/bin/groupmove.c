// SPDX-License-Identifier: GPL-2.0
/*
 * groupmove PMU LEADER MEMBER CPU SECONDS -- CMD...: open a group member
 * while the package of reading CPU CPU moves, then count.
 *
 * 1. A leader (config LEADER) is opened on CPU and counts.
 * 2. With the driver's open_delay_ms hook set, a thread opens a single
 *    event (config LEADER) on CPU: it is held between event_init and its
 *    install, and the package's move will wait for it.
 * 3. Another thread takes CPU offline: the move begins, and waits.
 * 4. Once debugfs "opens" shows the package moving, the member (config
 *    MEMBER) is opened into the leader's group. perf holds the leader's
 *    context mutex around its event_init, and the move needs that mutex:
 *    if event_init waited for the move, neither would end. SIGALRM after
 *    SECONDS ends the wait (it is killable) and this program.
 * 5. Once the CPU is offline, CMD runs (the test's injections), and the
 *    three counts are printed: "leader=N member=N single=N", or the open
 *    that failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DBG "/sys/kernel/debug/uncore_pmu/"

static int type, cpu;
static uint64_t leader_cfg;
static int single_fd = -1, single_err;
static int offline_err;

static int open_event(uint64_t config, int group, uint64_t rf)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.read_format = rf;
	return syscall(SYS_perf_event_open, &attr, -1, cpu, group, 0);
}

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return errno;
	err = fputs(val, f) < 0 ? errno : 0;
	if (fclose(f) && !err)
		err = errno;
	return err;
}

/* Does debugfs "opens" have a line starting with @prefix? */
static int opens_has(const char *prefix)
{
	char line[256];
	FILE *f = fopen(DBG "opens", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, prefix, strlen(prefix));
	fclose(f);
	return found;
}

/* Poll for @prefix in "opens" for up to @secs seconds. */
static int wait_opens(const char *prefix, int secs)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int n;

	for (n = 0; n < secs * 20; n++) {
		if (opens_has(prefix))
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static void *single_thread(void *arg)
{
	(void)arg;
	single_fd = open_event(leader_cfg, -1, 0);
	if (single_fd < 0)
		single_err = errno;
	return NULL;
}

static void *offline_thread(void *arg)
{
	char path[96];

	(void)arg;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	offline_err = write_file(path, "0");
	return NULL;
}

static int read_type(const char *pmu)
{
	char path[256], buf[32];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	return atoi(buf);
}

int main(int argc, char **argv)
{
	uint64_t member_cfg, grp[3], one;
	pthread_t ts, to;
	char prefix[128];
	int leader, member, secs, status;
	pid_t pid;

	if (argc < 8 || strcmp(argv[6], "--")) {
		fprintf(stderr, "usage: %s PMU LEADER MEMBER CPU SECONDS -- CMD...\n",
			argv[0]);
		return 2;
	}
	type = read_type(argv[1]);
	leader_cfg = strtoull(argv[2], NULL, 0);
	member_cfg = strtoull(argv[3], NULL, 0);
	cpu = atoi(argv[4]);
	secs = atoi(argv[5]);
	if (type < 0)
		return 2;

	leader = open_event(leader_cfg, -1, PERF_FORMAT_GROUP);
	if (leader < 0) {
		printf("leader open: %s\n", strerror(errno));
		return 1;
	}
	if (write_file(DBG "open_delay_ms", "4000"))
		return 2;
	pthread_create(&ts, NULL, single_thread, NULL);
	snprintf(prefix, sizeof(prefix), "%d %s\n", cpu, argv[1]);
	if (wait_opens(prefix, secs)) {
		printf("the single event was never held on CPU %d\n", cpu);
		return 1;
	}
	pthread_create(&to, NULL, offline_thread, NULL);
	if (wait_opens("# package ", secs)) {
		printf("no package moving after CPU %d went offline\n", cpu);
		return 1;
	}
	write_file(DBG "open_delay_ms", "0");
	/* SIGALRM's default action ends a wait that would never end. */
	alarm(secs);
	member = open_event(member_cfg, leader, 0);
	alarm(0);
	if (member < 0) {
		printf("member open: %s\n", strerror(errno));
		return 1;
	}
	pthread_join(to, NULL);
	pthread_join(ts, NULL);
	if (offline_err || single_fd < 0) {
		printf("offline: %s, single open: %s\n", strerror(offline_err),
		       strerror(single_err));
		return 1;
	}

	pid = fork();
	if (pid == 0) {
		execvp(argv[7], argv + 7);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || status)
		return 1;
	if (read(leader, grp, sizeof(grp)) != sizeof(grp) || grp[0] != 2 ||
	    read(single_fd, &one, sizeof(one)) != sizeof(one)) {
		printf("read: %s\n", strerror(errno));
		return 1;
	}
	printf("leader=%llu member=%llu single=%llu\n",
	       (unsigned long long)grp[1], (unsigned long long)grp[2],
	       (unsigned long long)one);
	return 0;
}
