# SPDX-License-Identifier: GPL-2.0
# Host entry points. The module sources are described in Kbuild; everything
# that needs a VM, the test kernel or Debian packages lives in tools/.

# KVER and KDIR as given, before the defaults below: KDIR's default
# depends on KVER, and `make` says when it chose KDIR itself.
KVER_GIVEN := $(KVER)
KDIR_GIVEN := $(KDIR)
RUNNING_KDIR := $(wildcard /lib/modules/$(shell uname -r)/build)

# The build tree of KVER if given, else the headers of the running kernel
# if installed, else the newest Debian ones of the stock flavour (6.1.0-N-amd64,
# 6.12.N+debN-amd64; not -rt-amd64 or -cloud-amd64): the build machine may
# run a kernel without headers (any uname -r), and then `make` says which
# it picked.
KDIR ?= $(strip $(if $(KVER_GIVEN),/lib/modules/$(KVER_GIVEN)/build, \
	$(or $(RUNNING_KDIR), \
	$(shell ls -d /usr/src/linux-headers-*[0-9]-amd64 2>/dev/null | sort -V | tail -n1))))

# The release KDIR builds for (its uname -r), from utsrelease.h: Debian's
# header packages give `make kernelrelease` the upstream version instead.
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)

# The package version, from the first line of debian/changelog.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' $(CURDIR)/debian/changelog)

# make install: uncore_pmu.ko (never the simulator) into
# $(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR), where Kbuild's own
# modules_install puts external modules, then depmod (-b $(DESTDIR) when
# staging); the opt-in configuration files into $(DESTDIR)$(datadir);
# uncore-top, its manual page, its documentation, the event lists and
# the Grafana dashboard (install-tools, which make dkms-src and the .deb
# install too).
INSTALL_MOD_DIR ?= extra
prefix ?= /usr/local
datadir ?= $(prefix)/share
bindir ?= $(prefix)/bin
mandir ?= $(datadir)/man
docdir ?= $(datadir)/doc/uncore-pmu
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
DEPMOD = depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
CONF_FILES := modprobe.d/uncore-pmu-replaces-intel-uncore.conf \
	      modules-load.d/uncore-pmu.conf

.PHONY: all modules clean demo check soak bench lint deps fuzz install \
	uninstall dkms-src deb probes install-tools event-docs

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers: set KDIR or run 'make deps'" >&2; exit 1; }
	@if [ -z "$(KDIR_GIVEN)$(KVER_GIVEN)$(RUNNING_KDIR)" ]; then \
		echo "no headers for the running kernel ($$(uname -r)): building for $(KVER) ($(KDIR)); KDIR= or KVER= to choose" >&2; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# A module built for another kernel than KVER would never load there.
install: modules
	@test -n "$(KVER)" || { echo "no kernel release: set KVER or KDIR" >&2; exit 1; }
	@built=$$(modinfo -F vermagic uncore_pmu.ko | cut -d' ' -f1); \
	if [ "$$built" != "$(KVER)" ]; then \
		echo "uncore_pmu.ko is built for $$built, not $(KVER): set KDIR to its build tree" >&2; \
		exit 1; \
	fi
	install -D -m 0644 uncore_pmu.ko $(MODDIR)/uncore_pmu.ko
	$(DEPMOD)
	for f in $(CONF_FILES); do \
		install -D -m 0644 conf/$$f $(DESTDIR)$(datadir)/uncore-pmu/$$f || exit 1; \
	done
	$(MAKE) install-tools

# `make event-docs`: the event list of each family with a table,
# Documentation/events-<family>.rst, from its events .tsv (gen_events.awk
# mode=rst). tests/gen/run.sh fails when a list is not what its table
# generates.
EVENT_DOC_FAMILIES := $(patsubst %_events.tsv,%,$(notdir \
	$(wildcard $(CURDIR)/drivers/uncore/*/*_events.tsv)))

event-docs:
	for f in $(EVENT_DOC_FAMILIES); do \
		awk -v mode=rst -f drivers/uncore/gen_events.awk \
			drivers/uncore/$$f/$${f}_events.tsv > Documentation/events-$$f.rst.tmp && \
		mv Documentation/events-$$f.rst.tmp Documentation/events-$$f.rst || \
		{ rm -f Documentation/events-$$f.rst.tmp; exit 1; }; \
	done

USER_DOCS := uncore-top.rst $(EVENT_DOC_FAMILIES:%=events-%.rst)
# The Grafana dashboard of uncore-top --prom's series, as an example.
GRAFANA_EXAMPLE = $(DESTDIR)$(docdir)/examples/grafana-uncore-top.json
TOOL_FILES = $(DESTDIR)$(bindir)/uncore-top $(DESTDIR)$(mandir)/man1/uncore-top.1 \
	$(USER_DOCS:%=$(DESTDIR)$(docdir)/%) $(GRAFANA_EXAMPLE)

install-tools:
	install -D -m 0755 tools/uncore-top $(DESTDIR)$(bindir)/uncore-top
	install -D -m 0644 tools/uncore-top.1 $(DESTDIR)$(mandir)/man1/uncore-top.1
	for f in $(USER_DOCS); do \
		install -D -m 0644 Documentation/$$f $(DESTDIR)$(docdir)/$$f || exit 1; \
	done
	install -D -m 0644 tools/grafana/uncore-top.json $(GRAFANA_EXAMPLE)

UNINSTALL_DIRS = $(MODDIR) $(DESTDIR)$(datadir)/uncore-pmu/modprobe.d \
	$(DESTDIR)$(datadir)/uncore-pmu/modules-load.d $(DESTDIR)$(datadir)/uncore-pmu

uninstall:
	@test -n "$(KVER)" || { echo "no kernel release: set KVER or KDIR" >&2; exit 1; }
	rm -f $(MODDIR)/uncore_pmu.ko $(addprefix $(DESTDIR)$(datadir)/uncore-pmu/,$(CONF_FILES))
	rm -f $(TOOL_FILES)
	for d in $(DESTDIR)$(docdir)/examples $(DESTDIR)$(docdir); do \
		[ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; \
	done
	for d in $(UNINSTALL_DIRS); do \
		[ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; \
	done
	[ ! -d $(DESTDIR)/lib/modules/$(KVER) ] || $(DEPMOD)

# `make dkms-src [DKMS_SRC=dir]`: the sources dkms builds uncore_pmu.ko
# from (not the simulator's, not the tests'), with dkms.conf's version
# filled in, where `dkms add/build/install -m uncore-pmu -v $(VERSION)`
# looks for them by default. Files an in-place build left are not copied.
DKMS_SRC ?= /usr/src/uncore-pmu-$(VERSION)
# What an in-place build writes next to the sources.
RSYNC_NO_OBJECTS := --exclude-from=$(CURDIR)/tools/build-products.exclude

dkms-src:
	@test -n "$(VERSION)" || { echo "no version in debian/changelog" >&2; exit 1; }
	mkdir -p $(DKMS_SRC)
	rsync -a --delete $(RSYNC_NO_OBJECTS) --include='/drivers/' --include='/drivers/uncore/***' \
		--include='/include/***' --include='/Kbuild' --include='/LICENSE' --exclude='*' \
		$(CURDIR)/ $(DKMS_SRC)/
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf
	$(MAKE) install-tools

# `make deb`: the Debian package uncore-pmu-dkms (debian/), built from a
# copy of the tree in build/deb/src, so that the package files land in
# build/deb and an in-place build's objects stay out; then lintian.
deb:
	rm -rf build/deb
	mkdir -p build/deb/src
	rsync -a $(RSYNC_NO_OBJECTS) --exclude='/build*' --exclude='/.git' \
		$(CURDIR)/ build/deb/src/
	cd build/deb/src && dpkg-buildpackage -b -us -uc
	lintian --fail-on error,warning --info build/deb/uncore-pmu-dkms_$(VERSION)_all.deb

deps:
	tools/setup-deps.sh

# `make demo PART=p4mp`: another part of tools/vm/parts.tsv (bdx by default).
PART ?= bdx

demo:
	PART=$(PART) tools/vm/demo.sh

check:
	tools/vm/check.sh

# The stress tests with their full numbers (some 40 minutes; Documentation/stress.rst);
# PART=nhmex for the Xeon 7500's.
soak:
	PART=$(PART) tools/vm/soak.sh

# `make fuzz PART=nhmex MINUTES=30 [SEED=N]`: the uncore fuzzer alone on the
# debug kernel, as long as asked (Documentation/fuzzing.rst).
MINUTES ?= 5
SEED ?=

fuzz:
	PART=$(PART) MINUTES=$(MINUTES) SEED=$(SEED) tools/vm/fuzz.sh

bench:
	tools/vm/bench.sh

lint:
	tools/lint.sh

# `make probes`: what KDIR's kernel has of what perf_compat.h asks about
# (drivers/uncore/core/probes/), built in a scratch copy, nothing else.
probes:
	@test -n "$(KDIR)" || { echo "no kernel headers: set KDIR or run 'make deps'" >&2; exit 1; }
	@tmp=$$(mktemp -d) && cp $(CURDIR)/drivers/uncore/core/probes/* $$tmp/ && \
	$(MAKE) -s -C $(KDIR) M=$$tmp modules; rc=$$?; rm -rf $$tmp; exit $$rc

clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build
