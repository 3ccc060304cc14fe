/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the guest's helper programs: a PMU's numbers from sysfs, and dying
 * with a message. HELPER names the program in messages.
 */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS "/sys/bus/event_source/devices/"

static void die(const char *what)
{
	fprintf(stderr, HELPER ": %s: %s\n", what, errno ? strerror(errno) : "failed");
	exit(1);
}

/* The first number of a PMU's sysfs file ("12" of "12", "0" of "0-3,8"). */
static long first_number(const char *pmu, const char *file)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), SYSFS "%s/%s", pmu, file);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &v) != 1)
		die(path);
	fclose(f);
	return v;
}

#endif /* PMU_SYSFS_H */
