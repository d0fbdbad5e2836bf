# scripts/mklab.awk -- replace the fences of one lab in one source file by
# the stub above them (see scripts/mklab). Variables: lab (the lab name).
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
# becomes a one-line pointer to the handout followed by the stub, as code.
# A fence without a stub comment leaves only the pointer.

function indent_of(s) { match(s, /^[ \t]*/); return substr(s, 1, RLENGTH) }

{ src[NR] = $0 }

END {
	begin_re = "/\\* LAB " lab ": BEGIN \\*/"
	end_re = "/\\* LAB " lab ": END \\*/"
	marker_re = "LAB " lab ": .*start(s)? from th(is|ese)"
	m = 0; fences = 0
	for (i = 1; i <= NR; i++) {
		if (src[i] !~ begin_re) {
			out[++m] = src[i]
			continue
		}
		for (j = i + 1; j <= NR && src[j] !~ end_re; j++)
			;
		if (j > NR) {
			printf "mklab: %s:%d: LAB %s: BEGIN without END\n",
			    FILENAME, i, lab > "/dev/stderr"
			exit 1
		}
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
		out[++m] = indent_of(src[i]) "/* LAB " lab ": your code here (lab/" lab "/README.md) */"
		for (s = 1; s <= nstub; s++)
			out[++m] = stub[s]
		i = j
	}
	for (k = 1; k <= m; k++)
		print out[k]
	printf "%d\n", fences > "/dev/stderr"
}
