# scripts/fences.awk -- the student's regions of one lab in one source file
# of a student tree (scripts/mklab writes them):
#
#	/* LAB name: your code here (lab/name/README.md) */
#	...the stub, then the student's code...
#	/* LAB name: end of your code */
#
# Variables: lab (the lab name), mode:
#   outside   the file with every region's inside left out (its two marker
#             lines kept): what the student may not change, to compare.
#             Other labs' code (a staff fence, /* LAB x: BEGIN */ ... END,
#             or a student's region carried from an earlier tree) is one
#             line, /* LAB x: another lab's code */: grading puts the
#             staff's code there whatever the hand-in holds
#   splice    the file (the stub tree's) with each region's inside taken
#             from the same region, by order, of the file named by the
#             variable from (the hand-in's); the number of regions must
#             agree
#   carry     the file (a new tree's, where lab is an earlier lab, still
#             fenced with the staff's code) with each fence of lab turned
#             into a region holding the inside of the same region, by
#             order, of from (the student's earlier tree): make lab
#             FROM=DIR. With the variable scaffold (a file), its lines go
#             at the top of the first region: the helpers a stub carried
#             unfinished calls, part of the student's code from then on
# Exit 1, saying why, on a region without its end or a count that differs.

function is_begin(s) { return index(s, "/* LAB " lab ": your code here") > 0 }
function is_end(s) { return index(s, "/* LAB " lab ": end of your code */") > 0 }
function is_fence(s, kind) { return index(s, "/* LAB " lab ": " kind " */") > 0 }

# The lab of another lab's fence or region that s opens, or "".
function other_opens(s,    m) {
	if (!match(s, /\/\* LAB [A-Za-z0-9_-]+: (BEGIN \*\/|your code here)/))
		return ""
	m = substr(s, RSTART + 7)
	sub(/:.*/, "", m)
	return m == lab ? "" : m
}

function other_closes(s, who) {
	return index(s, "/* LAB " who ": END */") > 0 ||
	    index(s, "/* LAB " who ": end of your code */") > 0
}

function fail(msg) {
	printf "fences: %s\n", msg > "/dev/stderr"
	bad = 1
	exit 1
}

# The insides of from's regions: ins[n] (lines joined), n regions.
function read_from(    line, n, inside) {
	n = 0; inside = 0
	while ((getline line < from) > 0) {
		if (is_begin(line)) {
			inside = 1; ins[++n] = ""
		} else if (is_end(line)) {
			inside = 0
		} else if (inside) {
			ins[n] = ins[n] line "\n"
		}
	}
	if (inside)
		fail(from ": a region of " lab " has no end marker")
	close(from)
	return n
}

BEGIN {
	if (mode == "splice" || mode == "carry")
		nfrom = read_from()
	region = 0; inside = 0; other = ""
}

mode == "carry" {
	if (is_fence($0, "BEGIN")) {
		inside = 1; region++
		sub(/BEGIN \*\//, "your code here (lab/" lab "/README.md) */")
		print
		if (region == 1 && scaffold != "") {
			while ((getline line < scaffold) > 0)
				print line
			close(scaffold)
		}
		if (region <= nfrom)
			printf "%s", ins[region]
	} else if (is_fence($0, "END")) {
		inside = 0
		sub(/END \*\//, "end of your code */")
		print
	} else if (!inside) {
		print
	}
	next
}

mode == "outside" && !inside && (other != "" || other_opens($0) != "") {
	if (other == "") {
		other = other_opens($0)
		print "/* LAB " other ": another lab's code */"
	} else if (is_begin($0)) {
		fail(FILENAME ":" FNR ": a region of " lab " inside code of " other)
	} else if (other_closes($0, other)) {
		other = ""
	}
	next
}

{
	if (is_begin($0)) {
		if (inside)
			fail(FILENAME ":" FNR ": a region begins inside another")
		inside = 1; region++
		print
		if (mode == "splice" && region <= nfrom)
			printf "%s", ins[region]
		next
	}
	if (is_end($0)) {
		if (!inside)
			fail(FILENAME ":" FNR ": an end marker outside a region")
		inside = 0
		print
		next
	}
	if (!inside)
		print
}

END {
	if (bad)
		exit 1
	if (inside)
		fail(FILENAME ": a region of " lab " has no end marker")
	if (other != "")
		fail(FILENAME ": code of " other " has no end marker")
	if (mode == "splice" && region != nfrom)
		fail(from ": " nfrom " region(s) of " lab ", the stub tree has " \
		    region)
	if (mode == "carry" && region != nfrom)
		fail(from ": " nfrom " region(s) of " lab ", this tree has " \
		    region " fence(s)")
}
