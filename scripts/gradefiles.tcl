# scripts/gradefiles.tcl -- a grade as files for machines: results.json
# and junit.xml, written by `scripts/run-tests --grade` (make grade).
#
#   results.json   Gradescope's autograder format: top-level score and
#                  max_score, and tests, one object per test with name,
#                  score, max_score, execution_time, status, visibility
#                  (the list's mark: visible, hidden, ...), output (the
#                  report line, and for a test short of full points the
#                  console lines that show why)
#   junit.xml      JUnit XML: a testsuite per list file, a testcase per
#                  test, a failure element for a FAIL or a PART
#
# Console text is arbitrary: JSON strings escape every character outside
# printable ASCII as \uXXXX, so the file is ASCII and always parses.  XML
# 1.0 cannot carry most control characters even as references, so those
# are shown as ^X (caret notation); CR, LF and tab are kept as references.
#
# Roadmap:
#   pl_grade_dir           PAGELAB_GRADEDIR, else build/grade
#   pl_write_grade_files   both files from run-tests' result dicts
#   pl_grade_json, pl_grade_junit   one file each
#   pl_json_str, pl_xml    escaping

proc pl_grade_dir {} {
	if {[info exists ::env(PAGELAB_GRADEDIR)] &&
	    $::env(PAGELAB_GRADEDIR) ne ""} {
		return $::env(PAGELAB_GRADEDIR)
	}
	return build/grade
}

# RESULTS: dicts with name file points score status why line excerpt secs.
# LABLIST: the list of the lab graded, or "" (for run-tests' list_label).
proc pl_write_grade_files {dir results lablist} {
	file mkdir $dir
	pl_write_file $dir/results.json [pl_grade_json $results]
	pl_write_file $dir/junit.xml [pl_grade_junit $results $lablist]
}

# Written whole to a temporary name first: a reader never sees half a file.
proc pl_write_file {path text} {
	set f [open $path.tmp w]
	fconfigure $f -encoding utf-8 -translation lf
	puts -nonewline $f $text
	close $f
	file rename -force $path.tmp $path
}

# What a student reads for one test: the report line, then the excerpt.
proc pl_grade_output {res} {
	set out [dict get $res line]
	if {[dict get $res excerpt] ne ""} {
		append out "\n--- console ---\n" [dict get $res excerpt]
	}
	return $out
}

proc pl_grade_json {results} {
	set score 0
	set max 0
	set tests {}
	foreach res $results {
		set score [expr {$score + [dict get $res score]}]
		set max [expr {$max + [dict get $res points]}]
		# A boot serves several tests: each gets its boot's time.
		lappend tests [format "    {\"name\": %s, \"score\": %s,\
		    \"max_score\": %s, \"execution_time\": %.1f,\
		    \"status\": %s, \"visibility\": %s, \"output\": %s}" \
		    [pl_json_str [dict get $res name]] \
		    [pl_fmt [dict get $res score]] [pl_fmt [dict get $res points]] \
		    [dict get $res secs] \
		    [pl_json_str [expr {[dict get $res status] eq "pass" ?
			"passed" : "failed"}]] \
		    [pl_json_str [dict get $res visibility]] \
		    [pl_json_str [pl_grade_output $res]]]
	}
	set out "{\n  \"score\": [pl_fmt $score],\n"
	append out "  \"max_score\": [pl_fmt $max],\n"
	append out "  \"visibility\": \"visible\",\n"
	append out "  \"tests\": \[\n[join $tests ,\n]\n  \]\n}\n"
	return $out
}

proc pl_grade_junit {results lablist} {
	set order {}
	foreach res $results {
		set file [dict get $res file]
		if {$file ni $order} {
			lappend order $file
			set cases($file) {}
			set n($file) 0
			set bad($file) 0
			set secs($file) 0
		}
		incr n($file)
		if {[dict get $res status] ne "pass"} {
			incr bad($file)
		}
		set secs($file) [expr {$secs($file) + [dict get $res secs]}]
		lappend cases($file) [pl_junit_case $res [list_label $file $lablist]]
	}
	set out "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
	foreach file $order {
		append out [format "  <testsuite name=\"%s\" tests=\"%d\"\
		    failures=\"%d\" errors=\"0\" time=\"%.1f\">\n" \
		    [pl_xml [list_label $file $lablist] 1] $n($file) $bad($file) \
		    $secs($file)]
		append out [join $cases($file) ""]
		append out "  </testsuite>\n"
	}
	append out "</testsuites>\n"
	return $out
}

# One testcase; its time is its boot's (a boot serves several tests).
proc pl_junit_case {res label} {
	set out [format "    <testcase name=\"%s\" classname=\"%s\"\
	    time=\"%.1f\">\n" [pl_xml [dict get $res name] 1] \
	    [pl_xml $label 1] [dict get $res secs]]
	set status [dict get $res status]
	if {$status ne "pass"} {
		set msg [format "%s %s/%s: %s" \
		    [expr {$status eq "part" ? "partial" : "failed"}] \
		    [pl_fmt [dict get $res score]] [pl_fmt [dict get $res points]] \
		    [dict get $res why]]
		append out "      <failure message=\"[pl_xml $msg 1]\"\
		    type=\"$status\">[pl_xml [pl_grade_output $res] 0]</failure>\n"
	}
	append out "    </testcase>\n"
	return $out
}

# S as a JSON string literal, ASCII only.
proc pl_json_str {s} {
	set out ""
	foreach c [split $s ""] {
		scan $c %c n
		if {$n == 34 || $n == 92} {
			append out \\ $c
		} elseif {$n == 10} {
			append out \\n
		} elseif {$n < 32 || $n > 126} {
			append out [format \\u%04x $n]
		} else {
			append out $c
		}
	}
	return "\"$out\""
}

# S escaped for XML 1.0 text (ATTR 0) or a double-quoted attribute (ATTR
# 1), ASCII only.  In an attribute a raw newline or tab would read back as
# a space, so they go as references there.
proc pl_xml {s attr} {
	set out ""
	foreach c [split $s ""] {
		scan $c %c n
		switch -- $c {
		& { append out "&amp;" }
		< { append out "&lt;" }
		> { append out "&gt;" }
		\" { append out "&quot;" }
		default {
			if {$n == 13 || (($n == 9 || $n == 10) && $attr)} {
				append out "&#$n;"
			} elseif {$n == 9 || $n == 10} {
				append out $c
			} elseif {$n < 32} {
				append out ^[format %c [expr {$n + 64}]]
			} elseif {$n >= 0xd800 && $n <= 0xdfff ||
			    $n == 0xfffe || $n == 0xffff} {
				append out "&#65533;"
			} elseif {$n > 126} {
				append out "&#$n;"
			} else {
				append out $c
			}
		}
		}
	}
	return $out
}
