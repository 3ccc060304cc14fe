#!/bin/bash
# build-modules.sh NAME KDIR [--kunit] [-- extra make args]
#
# Build uncore_pmu.ko and uncore_sim.ko against KDIR in build/NAME/; with
# --kunit, build instead every tests/kunit/*_test.c as its own module (in
# build/NAME/tests/kunit/, after the modules: a suite may use their
# symbols). Two steps so a broken suite does not stop the integration
# tests. External module
# builds write their objects next to the sources, so each kernel gets its own
# copy of the sources: two kernels never share (or clobber) objects, and the
# working tree stays clean.
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

[ $# -ge 2 ] || die "usage: $0 NAME KDIR [--kunit] [-- make args]"
name=$1 kdir=$2
shift 2
kunit=0
if [ "${1:-}" = --kunit ]; then kunit=1; shift; fi
[ "${1:-}" = -- ] && shift
[ -f "$kdir/Makefile" ] || die "$kdir is not a kernel build tree"

dst=$BUILD/$name
mkdir -p "$dst"
# Build products are excluded both ways: never copied from an in-place
# `make` in the repo, never deleted here, so rebuilds stay incremental (and
# the KUnit step, which includes the generated *_events.c, finds them).
rsync -a --delete --exclude-from="$REPO/tools/build-products.exclude" \
	"$REPO/Kbuild" "$REPO/Makefile" "$REPO/drivers" "$REPO/include" "$REPO/tests" \
	"$dst/"

if [ "$kunit" = 0 ]; then
	log "modules ($name) against $kdir"
	make -s -C "$kdir" M="$dst" W=1 UNCORE_TEST_FIXTURES=m "$@" modules
	exit 0
fi

# Stale .ko of a suite since deleted or broken must not reach the guest.
rm -f "$dst"/tests/kunit/*.ko
compgen -G "$dst/tests/kunit/*_test.c" >/dev/null || exit 0
log "KUnit modules ($name)"
make -s -C "$kdir" M="$dst/tests/kunit" W=1 \
	KBUILD_EXTRA_SYMBOLS="$dst/Module.symvers" "$@" modules
