# shellcheck shell=bash
# TAP helpers of the host tests (tests/host/*.sh; this folder is not one):
# ok DESC, notok DESC, check COND DESC (COND is eval'd), and tap_end, which
# prints the plan and fails if a check did. Sets n and bad.
n=0 bad=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n - $1"; }
check() { if eval "$1"; then ok "$2"; else notok "$2"; fi; }
tap_end() {
	echo "1..$n"
	[ "$bad" -eq 0 ]
}
