// SPDX-License-Identifier: GPL-2.0
/*
 * Generated from asym.tsv by gen_events.awk: do not edit.
 */
#include <linux/module.h>

#include "uncore.h"
#include "asym_tables.h"

const struct uncore_event_desc asym_hb_events[] = {
	{ .name = "msg_in_match",
	  .config = "event=0x01,counter=0,match=0x1" },
	{ .name = "msg_out_match",
	  .config = "event=0x01,counter=1" },
	{ .name = "tf_all",
	  .config = "event=0x04,counter=0",
	  .scale = "256" },
	{ .name = "conflicts",
	  .config = "event=0x17,counter=3" },
	{ }
};

const struct uncore_constraint asym_hb_constraints[] = {
	{ .code = 0x2, .cmask = 0xfe, .counters = 0x1, .max_inc = 1 },
	{ .code = 0x42, .cmask = 0xfe, .counters = 0x2, .max_inc = 1 },
	{ .code = 0x8, .cmask = 0xfe, .counters = 0x1, .max_inc = 1 },
	{ .code = 0xee, .cmask = 0xfe, .counters = 0x8, .max_inc = 1 },
	{ }
};

const struct uncore_event_desc asym_mc_events[] = {
	{ .name = "cmds_read",
	  .config = "inc_sel=0xd,fvc=0x2800",
	  .compat = true },
	{ .name = "cmds_write",
	  .config = "inc_sel=0xd,fvc=0x2820",
	  .compat = true },
	{ .name = "schedq",
	  .config = "flag_mode=1,set_flag_sel=0x6" },
	{ }
};

const struct uncore_constraint asym_mc_constraints[] = {
	{ .code = 0x300080, .cmask = 0x380080, .counters = 0x3f, .max_inc = 4 },
	{ }
};

const struct uncore_event_desc asym_pw_events[] = {
	{ .name = "clockticks",
	  .config = "event=0xff,umask=0",
	  .compat = true },
	{ .name = "turbo",
	  .config = "event=0x04,umask=0xff",
	  .compat = true },
	{ }
};

const struct uncore_constraint asym_pw_constraints[] = {
	{ }
};

MODULE_INFO(asym_event_counts, "hb=4 mc=3 pw=2");
