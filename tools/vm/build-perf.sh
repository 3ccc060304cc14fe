#!/bin/bash
# Build (once) the perf the debug kernel's guests and the other guests of
# its series (DEBUG_SERIES, common.sh: 6.12, of which Debian 12 ships no
# perf) run, and print its path: perf from the same Debian linux-source as
# that kernel, linked statically, without the features no test uses
# (scripting, TUI, DWARF, BPF, compression, decoders). Cached beside the
# kernel, keyed by the source version and this file.
#
# Why: Debian's perf maps 27 shared libraries, and every perf run in the
# debug guest paid for their page faults and relocations under KASAN and
# lockdep. Measured in one debug-kernel boot (2026-11-27, kmemleak on):
# `perf --version` 5.9 s against 0.7 s, `perf stat` of one uncore event
# 19-29 s against 12-22 s, `perf record -a` 38-90 s against 23-25 s,
# `perf script` 11-14 s against 4-7 s. The 6.1 guests keep Debian's perf:
# they check the driver with what its users run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"
cache=${UNCORE_CACHE:-/var/cache/uncore_pmu}

# What is left out. perf stat, record, script and report keep what the
# tests use: the JSON event tables (built with python3, see below), libelf
# for symbols, the syscall table.
opts=(LDFLAGS=-static PYTHON=/usr/bin/python3
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBBABELTRACE=1
	NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_DWARF=1 NO_LIBNUMA=1
	NO_LIBCRYPTO=1 NO_LIBCAP=1 NO_LIBBPF=1 NO_JVMTI=1 NO_LIBZSTD=1 NO_LZMA=1
	NO_AUXTRACE=1 NO_SDT=1 NO_LIBDEBUGINFOD=1 NO_DEMANGLE=1 NO_LIBPFM4=1)

srcver=$(dpkg-query -W -f='${Version}' "linux-source-$DEBUG_SERIES")
key=$( (cat "$0"; echo "$srcver") | sha256sum | cut -c1-12)
out=$cache/perf-$key

mkdir -p "$cache"
exec 9>"$cache/.perf.lock"
flock 9

if [ -f "$out/.done" ]; then
	echo "$out/perf"
	exit 0
fi

src=$("$here/unpack-source.sh")
echo "build-perf: building a static perf in $out" >&2
rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)
make -s -C "$src/tools/perf" O="$out" -j"$(nproc)" "${opts[@]}" "$out/perf" >&2
# Without python3, perf's Makefile drops the JSON event tables with a
# warning only; perf would then not know the aliases Debian's perf has.
grep -q broadwellx "$out/pmu-events/pmu-events.c" ||
	{ echo "build-perf: perf built without its JSON event tables" >&2; exit 1; }
strip "$out/perf"
echo "build-perf: built in $(($(date +%s) - start)) s" >&2
touch "$out/.done"
echo "$out/perf"
