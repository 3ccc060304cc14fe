#!/bin/bash
# Build each tests/vm/bin/*.c into a static binary in build/helpers/, which
# mkinitramfs.sh installs in the guest's /tests/bin (its initramfs has no
# libc beyond what perf drags in).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

mkdir -p "$BUILD/helpers"
rm -f "$BUILD"/helpers/*
for c in "$REPO"/tests/vm/bin/*.c; do
	[ -e "$c" ] || continue
	log "helper ${c##*/}"
	gcc -static -O2 -Wall -Wextra -o "$BUILD/helpers/$(basename "$c" .c)" "$c"
done
# The uncore fuzzer (tests/fuzz/, Documentation/fuzzing.rst): one program
# of several files, with threads.
log "helper uncore_fuzz"
gcc -static -O2 -Wall -Wextra -pthread -o "$BUILD/helpers/uncore_fuzz" "$REPO"/tests/fuzz/*.c
