// SPDX-License-Identifier: GPL-2.0
/*
 * privs UID CAPS ACTION ARGS...: become UID (gid UID, no supplementary
 * groups) holding only the capabilities CAPS ("none", or a comma list of
 * "perfmon", "sys_admin"), check that the kernel says so, then do ACTION
 * in the same process (no exec, so no ambient capabilities are involved):
 *
 *   open PMU CONFIG CPU PID [period=N] [exclude_kernel] [wait=FILE]
 *	perf_event_open(2) of CONFIG on PMU (attr.type from sysfs) for
 *	PID/CPU as given; prints "ok" or the errno's name. With wait=FILE
 *	(on success): prints "open", waits for FILE to exist (root injects
 *	meanwhile), then prints "count N" (read(2)) and, for a sampling
 *	event, "samples N lost N" from its ring buffer.
 *   access PATH
 *	opens PATH for reading (and reads it) and for writing (nothing is
 *	written); prints "read:R write:W", each "ok" or an errno's name.
 *
 * Exits 0 when ACTION ran, whatever its outcome; 2 on a usage error or a
 * failure to change identity. Built static for the guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES 16

static void die(const char *what)
{
	fprintf(stderr, "privs: %s: %s\n", what, strerror(errno));
	exit(2);
}

static const char *errname(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBUSY: return "EBUSY";
	case ENOSPC: return "ENOSPC";
	case EFAULT: return "EFAULT";
	case EIO: return "EIO";
	case EISDIR: return "EISDIR";
	default: return "E?";
	}
}

static int cap_number(const char *name)
{
	if (!strcmp(name, "perfmon"))
		return CAP_PERFMON;
	if (!strcmp(name, "sys_admin"))
		return CAP_SYS_ADMIN;
	fprintf(stderr, "privs: unknown capability %s\n", name);
	exit(2);
}

/*
 * setresuid() from root clears the permitted set unless PR_SET_KEEPCAPS is
 * on; with it, the wanted capabilities are made effective again after.
 */
static void become(uid_t uid, const char *caps)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct want[2] = {}, got[2] = {};
	char *list = strdup(caps), *tok, *save;
	int i;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int c;

		if (!strcmp(tok, "none"))
			continue;
		c = cap_number(tok);
		want[c / 32].effective |= 1U << (c % 32);
		want[c / 32].permitted |= 1U << (c % 32);
	}
	free(list);
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		die("PR_SET_KEEPCAPS");
	if (setgroups(0, NULL) || setresgid(uid, uid, uid))
		die("setresgid");
	if (setresuid(uid, uid, uid))
		die("setresuid");
	if (syscall(SYS_capset, &hdr, want))
		die("capset");
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0))
		die("PR_SET_KEEPCAPS");
	if (syscall(SYS_capget, &hdr, got))
		die("capget");
	for (i = 0; i < 2; i++) {
		if (got[i].effective != want[i].effective ||
		    got[i].permitted != want[i].permitted) {
			fprintf(stderr, "privs: capabilities not as asked\n");
			exit(2);
		}
	}
	if (getuid() != uid || geteuid() != uid || getegid() != uid) {
		fprintf(stderr, "privs: identity not changed\n");
		exit(2);
	}
}

static int pmu_type(const char *pmu)
{
	char path[256];
	int type = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

/* Records in the ring buffer: samples and lost-record counts. */
static void ring_count(struct perf_event_mmap_page *pg, uint64_t *samples,
		       uint64_t *lost)
{
	size_t size = (size_t)RING_PAGES * sysconf(_SC_PAGESIZE);
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t pos = pg->data_tail;
	char *data = (char *)pg + sysconf(_SC_PAGESIZE);

	*samples = 0;
	*lost = 0;
	while (pos < head) {
		struct perf_event_header h;
		size_t off = pos % size, n = sizeof(h);

		/* A header may wrap around the end of the buffer. */
		if (off + n <= size) {
			memcpy(&h, data + off, n);
		} else {
			memcpy(&h, data + off, size - off);
			memcpy((char *)&h + size - off, data, n - (size - off));
		}
		if (!h.size)
			break;
		if (h.type == PERF_RECORD_SAMPLE)
			(*samples)++;
		else if (h.type == PERF_RECORD_LOST)
			(*lost)++;
		pos += h.size;
	}
}

static int do_open(int argc, char **argv)
{
	struct perf_event_mmap_page *pg = NULL;
	struct perf_event_attr attr;
	const char *wait = NULL;
	uint64_t count, samples, lost;
	long page = sysconf(_SC_PAGESIZE);
	int i, fd, cpu, pid;

	if (argc < 4)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = pmu_type(argv[0]);
	if ((int)attr.type < 0) {
		fprintf(stderr, "privs: no PMU %s\n", argv[0]);
		return 2;
	}
	attr.config = strtoull(argv[1], NULL, 0);
	cpu = atoi(argv[2]);
	pid = atoi(argv[3]);
	for (i = 4; i < argc; i++) {
		if (!strncmp(argv[i], "period=", 7)) {
			attr.sample_period = strtoull(argv[i] + 7, NULL, 0);
			attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CPU |
					   PERF_SAMPLE_PERIOD;
		} else if (!strcmp(argv[i], "exclude_kernel")) {
			attr.exclude_kernel = 1;
		} else if (!strncmp(argv[i], "wait=", 5)) {
			wait = argv[i] + 5;
		} else {
			return -1;
		}
	}
	fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, 0);
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return 0;
	}
	if (!wait) {
		printf("ok\n");
		return 0;
	}
	if (attr.sample_period) {
		pg = mmap(NULL, (RING_PAGES + 1) * page, PROT_READ | PROT_WRITE,
			  MAP_SHARED, fd, 0);
		if (pg == MAP_FAILED)
			die("mmap");
	}
	printf("open\n");
	fflush(stdout);
	while (access(wait, F_OK))
		usleep(10000);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		die("read");
	printf("count %llu\n", (unsigned long long)count);
	if (pg) {
		ring_count(pg, &samples, &lost);
		printf("samples %llu lost %llu\n", (unsigned long long)samples,
		       (unsigned long long)lost);
	}
	return 0;
}

static int do_access(const char *path)
{
	char buf[4096];
	int fd, r = 0, w = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
		r = errno;
	if (fd >= 0)
		close(fd);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		w = errno;
	else
		close(fd);
	printf("read:%s write:%s\n", r ? errname(r) : "ok", w ? errname(w) : "ok");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		goto usage;
	become(atoi(argv[1]), argv[2]);
	if (!strcmp(argv[3], "open")) {
		int ret = do_open(argc - 4, argv + 4);

		if (ret >= 0)
			return ret;
		goto usage;
	}
	if (!strcmp(argv[3], "access") && argc == 5)
		return do_access(argv[4]);
usage:
	fprintf(stderr, "usage: privs UID CAPS open PMU CONFIG CPU PID %s\n"
		"       privs UID CAPS access PATH\n",
		"[period=N] [exclude_kernel] [wait=FILE]");
	return 2;
}
