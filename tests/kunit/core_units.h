/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's generic core and its Intel layer, compiled into a KUnit
 * suite's own unit so that the suite can reach their static functions.
 * Included first: the files set pr_fmt before any header does.
 */
#include "../../drivers/uncore/core/access.c"
#include "../../drivers/uncore/core/pmu.c"
#include "../../drivers/uncore/core/package.c"
#include "../../drivers/uncore/core/forward.c"
#include "../../drivers/uncore/core/poll.c"
#include "../../drivers/uncore/core/pmi.c"
#include "../../drivers/uncore/core/sample.c"
#include "../../drivers/uncore/core/sysfs.c"
#include "../../drivers/uncore/core/debugfs.c"
#include "../../drivers/uncore/core/setup.c"
#include "../../drivers/uncore/intel/msr_box.c"
#include "../../drivers/uncore/intel/pci_box.c"
