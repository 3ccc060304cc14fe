// SPDX-License-Identifier: GPL-2.0
/*
 * What the debugfs files of the core and of every model share below the
 * line grammar (debugfs.c): a write copied in from user space. Process
 * context.
 */
#include <linux/err.h>
#include <linux/string.h>
#include <asm/page.h>

#include "sim.h"

#define SIM_DEBUGFS_MAX_WRITE	PAGE_SIZE

/**
 * sim_copy_in() - a debugfs write, copied in
 * @ubuf: the user's buffer
 * @len: its length
 *
 * A debugfs write, NUL-terminated; free it with kfree().
 *
 * Return: the copy, or ERR_PTR(-EINVAL) for an empty write or one of more
 * than a page, or another ERR_PTR() if it could not be copied.
 */
char *sim_copy_in(const char __user *ubuf, size_t len)
{
	if (!len || len > SIM_DEBUGFS_MAX_WRITE)
		return ERR_PTR(-EINVAL);
	return memdup_user_nul(ubuf, len);
}
