# scripts/mklab.awk -- replace the fences of one lab in one source file by
# the stub above them (see scripts/mklab). Variables: lab (the lab name),
# scaffold (optional, below).
#
#	/*
#	 * LAB mkwrite: block_page_mkwrite starts from this.
#	 * int block_page_mkwrite(...)            <- the stub: the lines after
#	 * {                                         a marker ending "this." or
#	 *	...                                  "these.", or else after the
#	 * }                                         first blank comment line
#	 */
#	/* LAB mkwrite: BEGIN */
#	...the solution...
#	/* LAB mkwrite: END */
#
# becomes a one-line pointer to the handout, the stub, as code, and a line
# that ends the student's region (scripts/fences.awk reads the regions).
# A fence without a stub comment leaves only the pointer. With the variable
# scaffold set (a file: lab/LAB/scaffold/PATH, see scripts/mklab), that
# file's lines go just above the first fence's pointer: helpers the stubs
# call, which the full tree does not have. Fences of other labs may sit
# wholly inside this lab's fence (they go with it) or wholly outside; a
# fence that overlaps this one, a BEGIN without END or an END without
# BEGIN is an error (exit 1), as stubbing it would not build.

function indent_of(s) { match(s, /^[ \t]*/); return substr(s, 1, RLENGTH) }

function fail(line, msg) {
	printf "mklab: %s:%d: %s\n", FILENAME, line, msg > "/dev/stderr"
	exit 1
}

# The lab of a fence line, and whether it begins or ends ("" if neither).
function fence_of(s, kind,    m) {
	if (!match(s, "/\\* LAB [A-Za-z0-9_-]+: " kind " \\*/"))
		return ""
	m = substr(s, RSTART + 7, RLENGTH - 7)
	sub(/: .*/, "", m)
	return m
}

{ src[NR] = $0 }

END {
	begin_re = "/\\* LAB " lab ": BEGIN \\*/"
	end_re = "/\\* LAB " lab ": END \\*/"
	marker_re = "LAB " lab ": .*start(s)? from th(is|ese)"
	m = 0; fences = 0
	for (i = 1; i <= NR; i++) {
		if (src[i] ~ end_re)
			fail(i, "LAB " lab ": END without BEGIN")
		if (src[i] !~ begin_re) {
			out[++m] = src[i]
			continue
		}
		# To the END, with other labs' fences nested whole inside.
		depth = 0
		for (j = i + 1; j <= NR && src[j] !~ end_re; j++) {
			if (src[j] ~ begin_re)
				fail(j, "LAB " lab ": BEGIN inside its own fence")
			if ((o = fence_of(src[j], "BEGIN")) != "")
				inner[++depth] = o
			if ((o = fence_of(src[j], "END")) != "") {
				if (depth == 0 || inner[depth] != o)
					fail(j, "LAB " o ": END overlaps the fence of " \
					    lab " begun at line " i)
				depth--
			}
		}
		if (j > NR)
			fail(i, "LAB " lab ": BEGIN without END")
		if (depth > 0)
			fail(j, "LAB " lab ": END inside the fence of " inner[depth])
		fences++
		nstub = 0
		# A stub comment ends on the line just above BEGIN.
		if (m > 0 && out[m] ~ /^[ \t]*\*\/[ \t]*$/) {
			for (c = m; c > 0 && out[c] !~ /^[ \t]*\/\*/; c--)
				;
			for (k = c; k < m && out[k] !~ marker_re; k++)
				;
			if (c > 0 && k < m) {
				start = k + 1
				if (out[k] !~ /th(is|ese)\.[ \t]*$/) {
					while (start < m && out[start] !~ /^[ \t]*\*[ \t]*$/)
						start++
					start++
				}
				for (s = start; s < m; s++) {
					line = out[s]
					sub(/^[ \t]*\* ?/, "", line)
					stub[++nstub] = line
				}
				m = c - 1
			}
		}
		if (fences == 1 && scaffold != "") {
			while ((r = (getline line < scaffold)) > 0)
				out[++m] = line
			if (r < 0)
				fail(i, "cannot read " scaffold)
			close(scaffold)
		}
		out[++m] = indent_of(src[i]) "/* LAB " lab ": your code here (lab/" lab "/README.md) */"
		for (s = 1; s <= nstub; s++)
			out[++m] = stub[s]
		# The region's end: make handin takes what lies between the two
		# (scripts/fences.awk), and grading takes nothing else.
		out[++m] = indent_of(src[i]) "/* LAB " lab ": end of your code */"
		i = j
	}
	for (k = 1; k <= m; k++)
		print out[k]
	printf "%d\n", fences > "/dev/stderr"
}
