#!/bin/bash
# Host-side test of `tools/uncore-top --plot` (gnuplot), as TAP lines: a
# CSV of known rates for two packages drawn as SVG has one panel per rate
# column, titled with its unit, one line per package, and every point
# where the CSV puts it: gnuplot scales each axis as it likes, so the test
# checks that the points' pixel coordinates are the same affine function
# of the CSV's values for all of them (to 0.05 px; the SVG has two
# decimals). The PNG's size follows the panels; bad input is refused.
# Needs gnuplot (tools/setup-deps.sh installs gnuplot-nox).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ut=$here/../../tools/uncore-top
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

# Three intervals, two packages; the uclk rates differ so that no panel's
# values are all equal (an axis of one value has no scale to check).
cat >"$tmp/in.csv" <<'EOF'
time_s,pkg,interval_s,mem_read_MBps,uclk_GHz,mem_read_bytes,uclk_ticks
1.000,0,1.000000000,100.000000,2.000000,100000000,2000000000
1.000,1,1.000000000,300.000000,2.100000,300000000,2100000000
2.000,0,1.000000000,150.000000,1.900000,150000000,1900000000
2.000,1,1.000000000,350.000000,2.200000,350000000,2200000000
3.500,0,1.500000000,120.000000,2.000000,180000000,3000000000
3.500,1,1.500000000,330.000000,2.050000,495000000,3075000000
EOF

out=$("$ut" --plot "$tmp/in.csv" "$tmp/out.svg" 2>&1)
check "[ \$? = 0 ] && [ '$out' = 'uncore-top: wrote $tmp/out.svg' ]" "--plot to SVG: exit 0, says what it wrote"
svg=$tmp/out.svg
check "[ \"\$(grep -c '>mem_read (MB/s)<' $svg) \$(grep -c '>uclk (GHz)<' $svg)\" = '1 1' ]" \
	"one panel per rate column, titled with its unit"
check "[ \"\$(grep -c '>package 0<' $svg) \$(grep -c '>package 1<' $svg)\" = '2 2' ]" \
	"one line per package in each panel"

# points PLOT: the data points of gnuplot's plot group PLOT, "x y" a line:
# its path's second subpath (the first is the key's sample line). In a
# multiplot gnuplot names the N-th line of the P-th panel gnuplot_plot_N
# followed by the P-th letter: gnuplot_plot_2a is panel 1's second line.
points() {
	awk -v g="$1" '$0 ~ "id=\"" g "\"" { f = 1 } f && /<path/ { print; exit }' "$svg" |
		sed -n "s/.* d='\([^']*\)'.*/\1/p" | awk -F'M' '{ print $3 }' |
		tr 'L' '\n' | awk -F, 'NF == 2 { printf "%s %s\n", $1 + 0, $2 + 0 }'
}

# affine LETTER COLUMN: every point of the two lines of the panel LETTER
# names (a, b) against the CSV's time_s and COLUMN, one "t v x y" a line.
affine() {
	{
		awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
			$2 == 0 { print $1, $k }' "$tmp/in.csv" | paste -d' ' - <(points "gnuplot_plot_1$1")
		awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
			$2 == 1 { print $1, $k }' "$tmp/in.csv" | paste -d' ' - <(points "gnuplot_plot_2$1")
	} | awk 'NF != 4 { bad = 1 } { t[NR] = $1; v[NR] = $2; x[NR] = $3; y[NR] = $4 }
		END {
			if (bad || NR != 6) { print "points missing"; exit }
			# the scale from the extremes, then every point against it
			lo = hi = 1
			for (i = 2; i <= NR; i++) { if (v[i] < v[lo]) lo = i; if (v[i] > v[hi]) hi = i }
			sy = (y[hi] - y[lo]) / (v[hi] - v[lo]); sx = (x[NR] - x[1]) / (t[NR] - t[1])
			for (i = 1; i <= NR; i++) {
				if ((y[i] - y[lo]) - sy * (v[i] - v[lo]) > 0.05 || (y[i] - y[lo]) - sy * (v[i] - v[lo]) < -0.05 ||
				    (x[i] - x[1]) - sx * (t[i] - t[1]) > 0.05 || (x[i] - x[1]) - sx * (t[i] - t[1]) < -0.05) {
					printf "point %d (%s, %s) at %s,%s\n", i, t[i], v[i], x[i], y[i]; exit
				}
			}
			# higher values drawn higher up (SVG y grows downwards)
			print (sy < 0 && sx > 0) ? "ok" : "axes reversed"
		}'
}
for p in "a mem_read_MBps" "b uclk_GHz"; do
	# shellcheck disable=SC2086 # two words
	got=$(affine $p)
	check "[ '$got' = ok ]" "panel ${p% *}, ${p#* }: all 6 points where the CSV puts them ($got)"
done

"$ut" --plot "$tmp/in.csv" "$tmp/out.png" >/dev/null 2>&1
# The PNG signature's "PNG" and the IHDR chunk's name, width and height
# (big-endian), from the file's first 24 bytes.
png=$(od -An -tu1 -N24 "$tmp/out.png" | tr -s ' \n' '  ' | awk '{
	printf "%s %s %d x %d", ($2 $3 $4 == "807871") ? "PNG" : "?", ($13 $14 $15 $16 == "73726882") ? "IHDR" : "?",
		(($17 * 256 + $18) * 256 + $19) * 256 + $20, (($21 * 256 + $22) * 256 + $23) * 256 + $24 }')
check "[ '$png' = 'PNG IHDR 1200 x 300' ]" "--plot to PNG: 1200 x 300, one row of two panels ($png)"

# Bad input: not a CSV of --csv, no file, an output it cannot write.
echo "a,b" >"$tmp/bad.csv"
"$ut" --plot "$tmp/bad.csv" "$tmp/x.svg" >/dev/null 2>"$tmp/err"
check "[ \$? = 1 ] && grep -q 'not a CSV of uncore-top --csv' $tmp/err" "a CSV of something else: refused, exit 1"
"$ut" --plot "$tmp/none.csv" "$tmp/x.svg" >/dev/null 2>"$tmp/err"
check "[ \$? = 1 ] && grep -q 'cannot read' $tmp/err" "no input file: refused, exit 1"
"$ut" --plot "$tmp/in.csv" "$tmp/x.gif" >/dev/null 2>"$tmp/err"
check "[ \$? = 2 ] && grep -q '^usage: uncore-top' $tmp/err" "an output not .svg or .png: usage error, exit 2"

tap_end
