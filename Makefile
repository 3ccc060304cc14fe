# SPDX-License-Identifier: GPL-2.0
# Host entry points. The module sources are described in Kbuild; everything
# that needs a VM, the test kernel or Debian packages lives in tools/.

# Headers of the running kernel if installed, else the newest Debian ones
# of the stock flavour (N-amd64, not N-rt-amd64): the build machine may run
# a kernel without headers (any uname -r).
KDIR ?= $(or $(wildcard /lib/modules/$(shell uname -r)/build), \
	$(shell ls -d /usr/src/linux-headers-*[0-9]-amd64 2>/dev/null | sort -V | tail -n1))

.PHONY: all modules clean demo check soak bench lint deps fuzz

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers: set KDIR or run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

deps:
	tools/setup-deps.sh

# `make demo PART=p4mp`: another part of tools/vm/parts.sh (bdx by default).
PART ?= bdx

demo:
	PART=$(PART) tools/vm/demo.sh

check:
	tools/vm/check.sh

# The stress tests with their full numbers (hours; Documentation/stress.rst);
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

clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build
