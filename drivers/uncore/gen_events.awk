# SPDX-License-Identifier: GPL-2.0
#
# gen_events.awk: turn a family's event table (drivers/uncore/<family>/
# <prefix>_events.tsv) into C, or into its event list for Documentation/.
#
#	awk -f gen_events.awk bdx_events.tsv > bdx_events.c
#	awk -v mode=rst -f gen_events.awk bdx_events.tsv > events-bdx.rst
#
# For each type T the table declares, the output defines
# <prefix>_T_events[] (struct uncore_event_desc, NULL-name terminated) and
# <prefix>_T_constraints[] (struct uncore_constraint, zero-counters
# terminated), <prefix>_T_avail[] (struct uncore_avail, NULL-avail
# terminated) if any row of T has an availability, and records the number
# of aliases per type as the module info field <prefix>_event_counts
# ("T=N T=N ..."), which the guest tests read with modinfo. Each family has
# a table of its own. The table's own header says what its columns mean;
# the columns and directives every table shares:
#
#   type alias config scale unit ctrs maxinc ref [avail [desc]]
#   %prefix P            arrays are P_<type>_...
#   %type T N BITS FIELDS
#                        type T with N counters; BITS: the config bits the
#                        event field fills, low first ("1-5" for a 5-bit
#                        event field above an enable bit), or "-" for a type
#                        without an event field, whose events are told apart
#                        by its %key fields alone (every row must set one);
#                        FIELDS: the format/ fields an alias may set
#   %key T FIELD BITS [each]
#                        FIELD (one of T's) is part of the event's key, in
#                        config bits BITS: rows that set it get constraint
#                        and availability entries of their own, matched
#                        before the event's plain one, where rows of the
#                        event differ. With "each", every row of T must set
#                        FIELD and every (event, FIELD value) gets entries
#                        of its own even where the rows agree: for a field
#                        that names the event together with the event code
#                        (a box whose counters each have their own events)
#   %group T CODE MASK   one constraint entry for these events
#   %listed T ALIAS      list T's ALIAS with all_aliases=N too, as a
#                        "mainline" or "driver" row is: an alias
#                        tools/uncore-top reads, or one whose name perf's
#                        JSON encodes in a way the driver refuses
#
# A fixed-counter row (ctrs "fixed") is event=0xff, optionally with other
# fields set to 0 ("event=0xff,umask=0", as mainline spells some).
#
# avail, if given and not "-", names a condition the platform evaluates
# (struct uncore_platform.available): where it is false, the alias is not
# listed and the event (its key) is refused.
#
# desc, the alias's one-line description from the manual (printable
# ASCII), goes only into the event list (mode=rst), which needs one on
# every row, a %title line (the part's name), a %cond line (what it means)
# for each avail condition the rows name, and takes a %about line per type
# (what the box is, its PMUs); the C ignores all four:
#   %title TEXT
#   %about T TEXT
#   %cond NAME TEXT
#
# Any error (a malformed row, a duplicate alias, an unknown type or field,
# rows of one event that disagree on their counters) is reported as
# FILE:LINE and makes the script exit 1 without output.
#
# POSIX awk only (mawk, gawk, busybox): no bitwise functions, numbers are
# doubles, so bitmaps are built from powers of two below 2^53.

BEGIN {
	FS = "\t+"
	nerr = 0
	ntypes = 0
	prefix = ""
	# perf's parser reads these as its own terms, never as an alias.
	split("config config1 config2 name period freq branch_type time nr " \
	      "inherit overwrite percore", kw, " ")
	for (i in kw)
		keyword[kw[i]] = 1
	# Powers of two, for awks without the ^ operator (busybox).
	p2[0] = 1
	for (i = 1; i <= 53; i++)
		p2[i] = p2[i - 1] * 2
}

function err(msg) {
	err_at(FILENAME ":" FNR, msg)
}

# An error at @where ("FILE:LINE"), for one found after the line was read.
function err_at(where, msg) {
	printf "%s: %s\n", where, msg | "cat 1>&2"
	nerr++
}

# Value of a decimal or 0x-prefixed hex number; -1 if it is neither.
function num(s,    v, i, c) {
	if (s ~ /^[0-9]+$/)
		return s + 0
	if (s !~ /^0[xX][0-9a-fA-F]+$/)
		return -1
	v = 0
	for (i = 3; i <= length(s); i++) {
		c = index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
		v = v * 16 + c
	}
	return v
}

function bit(v, b) {
	return int(v / p2[b]) % 2
}

# Parse "a-b,c" into set[]; return the number of members, -1 if malformed
# or a member is not below lim.
function parse_set(s, lim, set,    parts, n, i, lo, hi, r, k) {
	n = split(s, parts, ",")
	k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] ~ /^[0-9]+$/) {
			lo = hi = parts[i] + 0
		} else if (parts[i] ~ /^[0-9]+-[0-9]+$/) {
			split(parts[i], r, "-")
			lo = r[1] + 0
			hi = r[2] + 0
		} else {
			return -1
		}
		if (lo > hi || hi >= lim)
			return -1
		for (; lo <= hi; lo++) {
			if (!(lo in set))
				k++
			set[lo] = 1
		}
	}
	return k
}

function hex(v) {
	return sprintf("0x%x", v)
}

{
	if (src == "") {
		src = srcpath = FILENAME
		sub(/.*\//, "", src)
		# The path in the repository, as the event list names it.
		if (match(srcpath, /(^|\/)(drivers|tests)\//))
			srcpath = substr(srcpath, RSTART + (RSTART > 1))
	}
}

/^[ \t]*$/ || /^#/ {
	next
}

/^%prefix/ {
	if (NF != 2 || $2 !~ /^[a-z_][a-z0-9_]*$/)
		err("malformed %prefix line")
	else
		prefix = $2
	next
}

/^%type/ {
	if (NF != 5 || $2 !~ /^[a-z][a-z0-9_]*$/ || $3 !~ /^[1-8]$/) {
		err("malformed %type line: want %type NAME COUNTERS BITS FIELDS")
		next
	}
	t = $2
	if (t in ncount) {
		err("type " t " declared twice")
		next
	}
	# Event bits, low first: "0-7,21" puts event bit 8 at config bit 21;
	# "-": none.
	nb = $4 == "-" ? 0 : split($4, bits, ",")
	evbits[t] = 0
	cmask[t] = 0
	for (i = 1; i <= nb; i++) {
		if (bits[i] ~ /^[0-9]+$/) {
			lo = hi = bits[i] + 0
		} else if (bits[i] ~ /^[0-9]+-[0-9]+$/) {
			split(bits[i], r, "-")
			lo = r[1] + 0
			hi = r[2] + 0
		} else {
			lo = 1
			hi = 0
		}
		if (lo > hi || hi > 52) {
			err("type " t ": bad event bits '" bits[i] "'")
			break
		}
		for (b = lo; b <= hi; b++) {
			if (bit(cmask[t], b)) {
				err("type " t ": event bit " b " given twice")
				break
			}
			evbit[t, evbits[t]++] = b
			cmask[t] += p2[b]
		}
	}
	nf = split($5, fl, ",")
	for (i = 1; i <= nf; i++)
		field[t, fl[i]] = 1
	if (nb && !((t, "event") in field))
		err("type " t " has no event field")
	if (!nb && (t, "event") in field)
		err("type " t " has an event field but no event bits")
	ncount[t] = $3 + 0
	order[++ntypes] = t
	nrows[t] = 0
	next
}

/^%key/ {
	if ((NF != 4 && (NF != 5 || $5 != "each")) || !($2 in ncount) ||
	    !(($2, $3) in field) || $3 == "event" || $4 !~ /^[0-9]+-[0-9]+$/) {
		err("malformed %key line: want %key TYPE FIELD LO-HI [each] of a declared type and field")
		next
	}
	split($4, r, "-")
	if (r[1] + 0 > r[2] + 0 || r[2] + 0 > 52) {
		err("%key " $2 " " $3 ": bad bits '" $4 "'")
		next
	}
	for (b = r[1] + 0; b <= r[2] + 0; b++) {
		if (bit(cmask[$2], b) || bit(kmaskall[$2], b)) {
			err("%key " $2 " " $3 ": bit " b " is already a key bit")
			next
		}
		kmaskall[$2] += p2[b]
	}
	keylo[$2, $3] = r[1] + 0
	keyhi[$2, $3] = r[2] + 0
	if (NF == 5)
		keyeach[$2, $3] = 1
	next
}

/^%group/ {
	if (NF != 4 || !($2 in ncount) || num($3) < 0 || num($4) < 0) {
		err("malformed %group line: want %group TYPE CODE MASK of a declared type")
		next
	}
	ngroup[$2]++
	gcode[$2, ngroup[$2]] = num($3)
	gmask[$2, ngroup[$2]] = num($4)
	next
}

# Directives for the event list in Documentation/ only (mode=rst).
/^%title/ {
	if (NF != 2)
		err("malformed %title line: want %title TEXT")
	else
		title = $2
	next
}

/^%about/ {
	if (NF != 3 || !($2 in ncount))
		err("malformed %about line: want %about TYPE TEXT of a declared type")
	else
		about[$2] = $3
	next
}

/^%cond/ {
	if (NF != 3 || $2 !~ /^[a-z][a-z0-9_]*$/)
		err("malformed %cond line: want %cond NAME TEXT")
	else
		cond[$2] = $3
	next
}

/^%listed/ {
	if (NF != 3 || !($2 in ncount)) {
		err("malformed %listed line: want %listed TYPE ALIAS of a declared type")
		next
	}
	listed[$2, $3] = FILENAME ":" FNR
	next
}

/^%/ {
	err("unknown directive " $1)
	next
}

{
	if (NF < 8 || NF > 10) {
		err("malformed row: " NF " fields, want 8 to 10 (type alias config scale unit ctrs maxinc ref [avail [desc]])")
		next
	}
	av = NF >= 9 && $9 != "-" ? $9 : ""
	if (NF == 10 && ($10 ~ /^[ -]*$/ || $10 ~ /[^ -~]/ || length($10) > 160)) {
		err("bad desc '" $10 "': printable ASCII, 1 to 160 characters")
		next
	}
	if (av != "" && av !~ /^[a-z][a-z0-9_]*$/) {
		err("bad avail '" $9 "'")
		next
	}
	t = $1
	alias = $2
	cfg = $3
	if (!(t in ncount)) {
		err("unknown type '" t "'")
		next
	}
	if (alias !~ /^[a-z_][a-z0-9_.]*$/ || alias ~ /^r[0-9a-f]+$/ ||
	    alias in keyword || (t, alias) in field ||
	    alias ~ /\.(scale|unit|snapshot)$/) {
		err("alias '" alias "' is not a name perf can use")
		next
	}
	if ((t, alias) in seen) {
		err("duplicate alias '" alias "' in type " t " (first at line " seen[t, alias] ")")
		next
	}
	seen[t, alias] = FNR

	# config: key=value terms of the type's fields, event exactly once
	ev = -1
	bad = 0
	delete used
	nterm = split(cfg, term, ",")
	for (i = 1; i <= nterm; i++) {
		if (split(term[i], kv, "=") != 2 || !((t, kv[1]) in field) ||
		    (kv[1] in used) || num(kv[2]) < 0) {
			err("bad config term '" term[i] "' for type " t)
			bad = 1
			break
		}
		used[kv[1]] = num(kv[2])
		if (kv[1] == "event")
			ev = num(kv[2])
	}
	if (bad)
		next
	if (ev < 0 && evbits[t]) {
		err("config '" cfg "' has no event")
		next
	}
	if (ev >= p2[evbits[t]]) {
		err("event " hex(ev) " does not fit the " evbits[t] " event bits of " t)
		next
	}
	for (k in keyeach) {
		split(k, kf, SUBSEP)
		if (kf[1] == t && !(kf[2] in used)) {
			err("config '" cfg "' does not set " kf[2] ", which every " t " row must (%key each)")
			bad = 1
			break
		}
	}
	if (bad)
		next
	# The key fields the row sets, in their config bits; each: one of them
	# is an "each" key.
	kcode = 0
	kmask = 0
	each = 0
	for (f in used) {
		if (!((t, f) in keylo))
			continue
		if ((t, f) in keyeach)
			each = 1
		w = keyhi[t, f] - keylo[t, f] + 1
		if (used[f] >= p2[w]) {
			err("key field " f "=" hex(used[f]) " does not fit its " w " bits")
			bad = 1
			break
		}
		kcode += used[f] * p2[keylo[t, f]]
		kmask += (p2[w] - 1) * p2[keylo[t, f]]
	}
	if (bad)
		next
	if (!evbits[t] && !kmask) {
		err("config '" cfg "' sets none of the key fields that tell " t "'s events apart (it has no event field)")
		next
	}

	if ($4 != "-" && $4 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) {
		err("bad scale '" $4 "'")
		next
	}
	if ($5 != "-" && $5 !~ /^[A-Za-z][A-Za-z0-9]*$/) {
		err("bad unit '" $5 "'")
		next
	}
	if ($7 !~ /^[0-9]+$/ || $7 + 0 > 65535) {
		err("bad maxinc '" $7 "'")
		next
	}

	# The fixed counter is event=0xff, other fields 0, and only that.
	if ($6 == "fixed") {
		bad = ev != 255
		for (f in used)
			if (f != "event" && used[f] != 0)
				bad = 1
		if (bad) {
			err("a fixed-counter row must be event=0xff (any other field 0)")
			next
		}
		code = 255
		cm = cmask[t]
	} else {
		if (ev == 255) {
			err("event=0xff selects the fixed counter: ctrs must be fixed")
			next
		}
		delete set
		if (parse_set($6, ncount[t], set) < 1) {
			err("bad ctrs '" $6 "' for type " t " (" ncount[t] " counters)")
			next
		}
		ctrs = 0
		for (b in set)
			ctrs += p2[b]
		delete set

		code = 0
		for (i = 0; i < evbits[t] && ev >= 0; i++)
			if (bit(ev, i))
				code += p2[evbit[t, i]]
		cm = cmask[t]
		grouped = 0
		for (g = 1; g <= ngroup[t]; g++) {
			c = 0
			for (b = 0; b < 53 && p2[b] <= gmask[t, g]; b++)
				if (bit(gmask[t, g], b) && bit(code, b))
					c += p2[b]
			if (c == gcode[t, g]) {
				code = gcode[t, g]
				cm = gmask[t, g]
				grouped = 1
				break
			}
		}
		# A group's events share one entry: their key fields do not count.
		if (grouped)
			kmask = kcode = each = 0
		note("c", t, code, cm, kcode, kmask, ctrs " " ($7 + 0), each)
	}
	note("a", t, code, cm, kcode, kmask, av, each && av != "")

	n = ++nrows[t]
	rname[t, n] = alias
	rcfg[t, n] = cfg
	rscale[t, n] = $4 == "-" ? "" : $4
	runit[t, n] = $5 == "-" ? "" : $5
	rcompat[t, n] = $8 ~ /^(mainline|driver)/
	ravail[t, n] = av
	rdesc[t, n] = NF == 10 ? $10 : ""
	rctrs[t, n] = $6
}

# Record value @val of kind @k ("c" constraints, "a" availability) for a
# row of event @code (@cm its plain key bits) whose key fields add @kcode
# in bits @kmask. Rows of one event that disagree are an error, unless the
# type has key fields: the event's entry then splits by key. @each: the row
# sets an "each" key, so the event's entry splits by key anyway.
function note(k, t, code, cm, kcode, kmask, val, each,    P, K, j, n) {
	P = k SUBSEP t SUBSEP code SUBSEP cm
	if (!(P in pval)) {
		pval[P] = val
		pline[P] = FNR
		n = ++pn[k, t]
		pcodeL[k, t, n] = code
		pcmL[k, t, n] = cm
	} else if (pval[P] != val) {
		if (kmaskall[t] == 0)
			err("event " hex(code) " of " t ": " (k == "c" ? "ctrs/maxinc" : "avail") \
			    " differs from line " pline[P])
		pmixed[P] = 1
	}
	if (each)
		pmixed[P] = 1
	if (!kmask) {
		if (kmaskall[t] && (P in prow) && prow[P] != val)
			err("event " hex(code) " of " t ": " (k == "c" ? "ctrs/maxinc" : "avail") \
			    " differs from line " prowline[P])
		prow[P] = val
		prowline[P] = FNR
		return
	}
	K = P SUBSEP (code + kcode) SUBSEP (cm + kmask)
	if (K in kval) {
		if (kval[K] != val)
			err("event " hex(code + kcode) " of " t ": " (k == "c" ? "ctrs/maxinc" : "avail") \
			    " differs from line " kline[K])
		return
	}
	kval[K] = val
	kline[K] = FNR
	j = ++kn[P]
	kcodeL[P, j] = code + kcode
	kcmL[P, j] = cm + kmask
}

# Is @val what an event without an entry gets anyway?
function is_default(k, t, val,    f) {
	if (k == "a")
		return val == ""
	split(val, f, " ")
	return f[1] + 0 == p2[ncount[t]] - 1 && f[2] + 0 <= 1
}

function emit_entry(k, t, code, cm, val,    f) {
	if (k == "a") {
		printf "\t{ .code = %s, .cmask = %s, .avail = \"%s\" },\n",
		       hex(code), hex(cm), val
		return
	}
	split(val, f, " ")
	printf "\t{ .code = %s, .cmask = %s, .counters = %s, .max_inc = %d },\n",
	       hex(code), hex(cm), hex(f[1]), f[2]
}

# The entries of kind @k, by event code; an event whose rows differ by key
# gets one entry per key first (a lookup takes the first match), then its
# plain one. Return how many were printed.
function emit_entries(k, t,    i, j, n, P, order, plain, printed) {
	n = pn[k, t]
	for (i = 1; i <= n; i++) {
		for (j = i - 1; j > 0 && pcodeL[k, t, order[j]] > pcodeL[k, t, i]; j--)
			order[j + 1] = order[j]
		order[j + 1] = i
	}
	printed = 0
	for (i = 1; i <= n; i++) {
		P = k SUBSEP t SUBSEP pcodeL[k, t, order[i]] SUBSEP pcmL[k, t, order[i]]
		if (!(P in pmixed)) {
			if (!is_default(k, t, pval[P])) {
				emit_entry(k, t, pcodeL[k, t, order[i]], pcmL[k, t, order[i]], pval[P])
				printed++
			}
			continue
		}
		plain = (P in prow) ? prow[P] : ""
		if (k == "c" && !(P in prow))
			plain = (p2[ncount[t]] - 1) " 1"
		for (j = 1; j <= kn[P]; j++) {
			K = P SUBSEP kcodeL[P, j] SUBSEP kcmL[P, j]
			if (kval[K] == plain ||
			    (is_default(k, t, kval[K]) && is_default(k, t, plain)))
				continue
			emit_entry(k, t, kcodeL[P, j], kcmL[P, j], kval[K])
			printed++
		}
		if (!is_default(k, t, plain)) {
			emit_entry(k, t, pcodeL[k, t, order[i]], pcmL[k, t, order[i]], plain)
			printed++
		}
	}
	return printed
}

function emit_events(t,    i, s) {
	printf "const struct %s %s_%s_events[] = {\n", "uncore_event_desc", prefix, t
	for (i = 1; i <= nrows[t]; i++) {
		s = "\t{ .name = \"" rname[t, i] "\",\n\t  .config = \"" rcfg[t, i] "\""
		if (rscale[t, i] != "")
			s = s ",\n\t  .scale = \"" rscale[t, i] "\""
		if (runit[t, i] != "")
			s = s ",\n\t  .unit = \"" runit[t, i] "\""
		if (rcompat[t, i])
			s = s ",\n\t  .compat = true"
		if (ravail[t, i] != "")
			s = s ",\n\t  .avail = \"" ravail[t, i] "\""
		print s " },"
	}
	print "\t{ }"
	print "};"
	print ""
}

function emit_constraints(t) {
	printf "const struct %s %s_%s_constraints[] = {\n", "uncore_constraint", prefix, t
	emit_entries("c", t)
	print "\t{ }"
	print "};"
	print ""
}

# Only types with a conditional event get the array (the family's header
# declares it for them).
function emit_avail(t,    i, has) {
	for (i = 1; i <= pn["a", t]; i++)
		has = has || pval["a" SUBSEP t SUBSEP pcodeL["a", t, i] SUBSEP pcmL["a", t, i]] != "" ||
		      (("a" SUBSEP t SUBSEP pcodeL["a", t, i] SUBSEP pcmL["a", t, i]) in pmixed)
	if (!has)
		return
	printf "const struct %s %s_%s_avail[] = {\n", "uncore_avail", prefix, t
	emit_entries("a", t)
	print "\t{ }"
	print "};"
	print ""
}

# The event list (mode=rst) needs a title, a description on every row,
# and the meaning of every availability condition the rows name.
function check_rst(    t, i, n, c, told, missing, first) {
	if (title == "")
		err("no %title line (mode=rst)")
	for (i = 1; i <= ntypes; i++) {
		t = order[i]
		missing = 0
		for (n = 1; n <= nrows[t]; n++) {
			if (rdesc[t, n] == "" && !missing++)
				first = rname[t, n]
			c = ravail[t, n]
			if (c != "" && !(c in cond) && !(c in told)) {
				err_at(src, "no %cond line for '" c "', which " t "/" rname[t, n] " needs (mode=rst)")
				told[c] = 1
			}
		}
		if (missing)
			err_at(src, "alias " t "/" first (missing > 1 ? " and " missing - 1 " more of " t : "") \
			       " without a desc (mode=rst)")
	}
}

# @s as reStructuredText inline text: the characters that would start
# markup escaped (emphasis, literals, substitutions, and a reference's
# trailing underscore), the rest as it is, so that the file reads as
# plain text too.
function rst_text(s) {
	gsub(/[\\*`|]/, "\\\\&", s)
	s = s " "
	while (match(s, /[A-Za-z0-9]_[^A-Za-z0-9]/))
		s = substr(s, 1, RSTART) "\\_" substr(s, RSTART + 2)
	return substr(s, 1, length(s) - 1)
}

# Print the words of @s as lines of at most 76 columns, each after @ind.
function wrap(s, ind,    w, nw, i, line) {
	nw = split(s, w, / +/)
	line = ""
	for (i = 1; i <= nw; i++) {
		if (line != "" && length(ind line " " w[i]) > 76) {
			print ind line
			line = ""
		}
		line = line == "" ? w[i] : line " " w[i]
	}
	if (line != "")
		print ind line
}

function rst_rule(s, c,    r) {
	r = s
	gsub(/./, c, r)
	return r
}

# One section per type, one definition per alias: its name, its
# description, then its encoding and what it needs.
function emit_rst(    i, t, n, total, head, line, extra) {
	total = 0
	for (i = 1; i <= ntypes; i++)
		total += nrows[order[i]]
	head = "Events: " title
	print ".. SPDX-License-Identifier: GPL-2.0"
	print ""
	print ".. Generated from " srcpath " by"
	print "   gen_events.awk (make event-docs): edit the table, never this file."
	print ""
	print rst_rule(head, "=")
	print head
	print rst_rule(head, "=")
	print ""
	wrap(total " aliases of " ntypes " box type" (ntypes > 1 ? "s" : "") \
	     ", each with its description from the manual, its encoding in the " \
	     "PMU's ``format/`` fields and the counters it may use. ``events/`` " \
	     "lists the aliases marked *listed* by default, and every one with " \
	     "the module parameter ``all_aliases=Y`` (Documentation/" \
	     "uncore_pmu.rst, \"Event aliases\"). An encoding works either way: " \
	     "``perf stat -a -e uncore_<box>/<encoding>/``.", "")
	for (i = 1; i <= ntypes; i++) {
		t = order[i]
		head = "uncore_" t
		print ""
		print head
		print rst_rule(head, "=")
		print ""
		line = ncount[t] " counter" (ncount[t] > 1 ? "s" : "") ", " nrows[t] " alias" (nrows[t] == 1 ? "" : "es")
		if (t in about)
			line = rst_text(about[t]) ". " line
		wrap(line ".", "")
		for (n = 1; n <= nrows[t]; n++) {
			print ""
			print "``" rname[t, n] "``" (rcompat[t, n] ? " *listed*" : "")
			wrap(rst_text(rdesc[t, n]) ".", "    ")
			extra = "``" rcfg[t, n] "``; " (rctrs[t, n] == "fixed" ? "the fixed counter" : \
				"counter" (rctrs[t, n] ~ /^[0-9]+$/ ? " " : "s ") rctrs[t, n])
			if (runit[t, n] != "")
				extra = extra "; in " runit[t, n] " (scale " rscale[t, n] ")"
			else if (rscale[t, n] != "")
				extra = extra "; scale " rscale[t, n]
			if (ravail[t, n] != "")
				extra = extra "; " rst_text(cond[ravail[t, n]]) " only"
			wrap(extra ".", "    ")
		}
	}
}

END {
	for (k in listed) {
		split(k, kp, SUBSEP)
		for (i = 1; i <= nrows[kp[1]]; i++)
			if (rname[kp[1], i] == kp[2])
				break
		if (i > nrows[kp[1]])
			err_at(listed[k], "%listed " kp[1] " " kp[2] ": no such alias")
		else
			rcompat[kp[1], i] = 1
	}
	if (prefix == "")
		err("no %prefix line")
	if (ntypes == 0)
		err("no %type line")
	if (mode == "rst")
		check_rst()
	if (nerr) {
		close("cat 1>&2")
		exit 1
	}
	if (mode == "rst") {
		emit_rst()
		exit 0
	}
	print "// SPDX-License-Identifier: GPL-2.0"
	print "/*"
	print " * Generated from " src " by gen_events.awk: do not edit."
	print " */"
	print "#include <linux/module.h>"
	print ""
	print "#include \"uncore.h\""
	print "#include \"" prefix "_tables.h\""
	print ""
	counts = ""
	for (i = 1; i <= ntypes; i++) {
		t = order[i]
		emit_events(t)
		emit_constraints(t)
		emit_avail(t)
		counts = counts (i > 1 ? " " : "") t "=" nrows[t]
	}
	print "MODULE_INFO(" prefix "_event_counts, \"" counts "\");"
}