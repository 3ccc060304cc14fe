// SPDX-License-Identifier: GPL-2.0
/*
 * uncount PMU CONFIG -- CMD...: count one uncore event on every CPU of the
 * PMU's cpumask while CMD runs, then print the total. A static, quick
 * stand-in for `perf stat` where a test repeats counting many times (the
 * load/unload loop) and perf's own start-up would dominate.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CPUS 256

static int read_file(const char *pmu, const char *name, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s",
		 pmu, name);
	f = fopen(path, "r");
	if (!f || !fgets(buf, len, f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	int fds[MAX_CPUS], n = 0, i, status;
	char buf[1024], *s;
	uint64_t total = 0;
	pid_t pid;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: %s PMU CONFIG -- CMD...\n", argv[0]);
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.config = strtoull(argv[2], NULL, 0);
	if (read_file(argv[1], "type", buf, sizeof(buf)))
		return 2;
	attr.type = atoi(buf);
	if (read_file(argv[1], "cpumask", buf, sizeof(buf)))
		return 2;

	/* cpumask is a list: "0,4" or "0-3". */
	for (s = buf; *s && *s != '\n' && n < MAX_CPUS;) {
		int lo = strtol(s, &s, 10), hi = lo, cpu;

		if (*s == '-')
			hi = strtol(s + 1, &s, 10);
		for (cpu = lo; cpu <= hi && n < MAX_CPUS; cpu++) {
			fds[n] = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
			if (fds[n] < 0) {
				perror("perf_event_open");
				return 1;
			}
			n++;
		}
		if (*s == ',')
			s++;
	}

	pid = fork();
	if (pid == 0) {
		execvp(argv[4], argv + 4);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;

	for (i = 0; i < n; i++) {
		uint64_t v;

		if (read(fds[i], &v, sizeof(v)) != sizeof(v))
			return 1;
		total += v;
		close(fds[i]);
	}
	printf("%llu\n", (unsigned long long)total);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}
