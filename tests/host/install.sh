#!/bin/bash
# Host-side test of what `make install` puts beside the module, as TAP
# lines: install-tools (which make install, make dkms-src and the .deb run)
# stages uncore-top, its manual page, its guide, every family's event list
# and the Grafana dashboard under DESTDIR and the prefix given, with their
# modes; the staged uncore-top runs; uninstall removes exactly those files
# and the folders they leave empty.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/lib/tap.sh
. "$REPO/tests/host/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/stage

if make -s -C "$REPO" install-tools DESTDIR="$dest" prefix=/usr >"$tmp/out" 2>&1; then
	ok "make install-tools DESTDIR=... prefix=/usr"
else
	notok "make install-tools DESTDIR=... prefix=/usr"
	sed 's/^/# /' "$tmp/out"
fi
want="755 usr/bin/uncore-top
644 usr/share/man/man1/uncore-top.1
644 usr/share/doc/uncore-pmu/uncore-top.rst
644 usr/share/doc/uncore-pmu/examples/grafana-uncore-top.json"
for tsv in "$REPO"/drivers/uncore/*/*_events.tsv; do
	f=${tsv##*/}
	want="$want
644 usr/share/doc/uncore-pmu/events-${f%_events.tsv}.rst"
done
got=$(cd "$dest" && find . -type f -printf '%m %P\n' | sort)
want=$(echo "$want" | sort)
if [ "$got" = "$want" ]; then
	ok "it stages uncore-top, its manual page, its guide, the Grafana dashboard and $(echo "$want" | grep -c events-) event lists, nothing else"
else
	notok "it stages uncore-top, its manual page, its guide, the Grafana dashboard and the event lists, nothing else"
	diff <(echo "$want") <(echo "$got") | sed 's/^/# /'
fi
for f in uncore-top.rst $(cd "$REPO/Documentation" && ls events-*.rst); do
	check "cmp -s '$REPO/Documentation/$f' '$dest/usr/share/doc/uncore-pmu/$f'" \
		"the staged $f is Documentation/$f"
done
check "cmp -s '$REPO/tools/grafana/uncore-top.json' '$dest/usr/share/doc/uncore-pmu/examples/grafana-uncore-top.json'" \
	"the staged dashboard is tools/grafana/uncore-top.json"
check "'$dest/usr/bin/uncore-top' --help 2>&1 | grep -q -i usage" "the staged uncore-top runs (--help)"

# make uninstall removes what TOOL_FILES names, and the folders it made
# empty; all of it, with a module
# release given (it also removes the module and the configuration files).
make -s -C "$REPO" uninstall KVER=0.0.0-none DESTDIR="$dest" prefix=/usr >"$tmp/out" 2>&1
left=$(cd "$dest" && find . -type f -o -type d -path '*/doc/*' | sort)
if [ -z "$left" ]; then
	ok "make uninstall removes every staged file"
else
	notok "make uninstall removes every staged file: left $left"
	sed 's/^/# /' "$tmp/out"
fi
tap_end
