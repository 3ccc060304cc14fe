# SPDX-License-Identifier: GPL-2.0
# Kernel feature probes, for drivers/uncore/core/perf_compat.h: each
# probes/NAME.c is compiled against KDIR with the module's flags (warnings
# as errors), and -DUNCORE_HAVE_<NAME> is added to ccflags-y if it builds.
# Probes name the exact member or macro the code uses, never a version:
# distribution kernels carry backports a version test gets wrong.
# Included by the top Kbuild and tests/kunit/Kbuild.
uncore-probe-dir := $(dir $(lastword $(MAKEFILE_LIST)))
uncore-probes := $(sort $(basename $(notdir $(wildcard $(uncore-probe-dir)*.c))))
uncore-probe-cc = $(CC) $(NOSTDINC_FLAGS) $(LINUXINCLUDE) \
	-include $(srctree)/include/linux/compiler_types.h $(KBUILD_CPPFLAGS) \
	$(KBUILD_CFLAGS) $(KBUILD_CFLAGS_MODULE) -DMODULE -Werror -c -o "$$TMP"
uncore-probe-have := $(foreach p,$(uncore-probes),$(call try-run,\
	$(uncore-probe-cc) $(uncore-probe-dir)$(p).c,$(p)))
ccflags-y += $(foreach p,$(uncore-probe-have),-DUNCORE_HAVE_$(shell echo $(p) | tr a-z A-Z))
