// SPDX-License-Identifier: GPL-2.0
/*
 * Generated from key_avail.tsv by gen_events.awk: do not edit.
 */
#include <linux/module.h>

#include "uncore.h"
#include "fix_tables.h"

const struct uncore_event_desc fix_nb_events[] = {
	{ .name = "dram_accesses.page_hit",
	  .config = "event=0xe0,umask=0x01" },
	{ .name = "sized_blocks.32b_writes",
	  .config = "event=0xe5,umask=0x04",
	  .avail = "rev_d" },
	{ .name = "sized_blocks.64b_writes",
	  .config = "event=0xe5,umask=0x08",
	  .avail = "rev_d" },
	{ .name = "ecc_errors",
	  .config = "event=0xe8",
	  .avail = "rev_e" },
	{ .name = "probe_responses.miss",
	  .config = "event=0xec,umask=0x01" },
	{ .name = "probe_responses.upstream_writes",
	  .config = "event=0xec,umask=0x40",
	  .avail = "rev_d" },
	{ .name = "ht_link0.all",
	  .config = "event=0xf6,umask=0x0f" },
	{ .name = "ht_link0.nop",
	  .config = "event=0xf6" },
	{ }
};

const struct uncore_constraint fix_nb_constraints[] = {
	{ .code = 0xff6, .cmask = 0xffff, .counters = 0x1, .max_inc = 4 },
	{ .code = 0xf6, .cmask = 0xff, .counters = 0x2, .max_inc = 4 },
	{ }
};

const struct uncore_avail fix_nb_avail[] = {
	{ .code = 0xe5, .cmask = 0xff, .avail = "rev_d" },
	{ .code = 0xe8, .cmask = 0xff, .avail = "rev_e" },
	{ .code = 0x40ec, .cmask = 0xffff, .avail = "rev_d" },
	{ }
};

MODULE_INFO(fix_event_counts, "nb=8");
