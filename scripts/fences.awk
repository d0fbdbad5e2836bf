# scripts/fences.awk -- the student's regions of one lab in one source file
# of a student tree (scripts/mklab writes them):
#
#	/* LAB name: your code here (lab/name/README.md) */
#	...the stub, then the student's code...
#	/* LAB name: end of your code */
#
# Variables: lab (the lab name), mode:
#   outside   the file with every region's inside left out (its two marker
#             lines kept): what the student may not change, to compare
#   splice    the file (the stub tree's) with each region's inside taken
#             from the same region, by order, of the file named by the
#             variable from (the hand-in's); the number of regions must
#             agree
# Exit 1, saying why, on a region without its end or a count that differs.

function is_begin(s) { return index(s, "/* LAB " lab ": your code here") > 0 }
function is_end(s) { return index(s, "/* LAB " lab ": end of your code */") > 0 }

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
	if (mode == "splice")
		nfrom = read_from()
	region = 0; inside = 0
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
	if (mode == "splice" && region != nfrom)
		fail(from ": " nfrom " region(s) of " lab ", the stub tree has " \
		    region)
}
