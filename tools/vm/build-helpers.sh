#!/bin/bash
# Build each tests/vm/*.c into a static binary in build/helpers/, for the
# guest (whose initramfs has no libc beyond what perf drags in).
set -euo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

mkdir -p "$BUILD/helpers"
rm -f "$BUILD"/helpers/*
for c in "$REPO"/tests/vm/*.c; do
	[ -e "$c" ] || continue
	log "helper ${c##*/}"
	gcc -static -O2 -Wall -Wextra -o "$BUILD/helpers/$(basename "$c" .c)" "$c"
done
