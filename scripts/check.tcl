# scripts/check.tcl -- judge one test against its boot's console log.
#
# A test passes when its boot was sound (scripts/lib.tcl, pl_judge) and
# every check holds.  When one does not, the reason shows what was expected
# and, where a console line looks like it, what came instead:
#   missing /Command line: poweroff x=1/; got 'Command line: poweroff x=2'
# and, when a test program said why it failed, that first:
#   mmap_eof rc=1, first failure: not ok 3 - ... (got 0, want 1); missing ...
# A test with tap checks scores part of its points (scripts/testlist.tcl,
# "Points"): "PART" in the report, a failure in the counts.
#
# Roadmap:
#   pl_grade_test      a test's status (pass, part, fail), score and reason
#   pl_check_test      the first failing all-or-nothing check's reason, or ""
#   pl_check_match, pl_check_nomatch, pl_check_order
#   pl_tap_score       the tap checks' pooled fraction of the points
#   pl_tap_block       a program's lines between === BEGIN and === END
#   pl_explain         the first `not ok` line and rc of the test's programs
#   pl_excerpt         the console lines a student needs to see (grade files),
#                      with a hang's evidence (hung-task report, task dump)
#   pl_near            the console line that comes closest to a regex

# Returns a dict: status pass|part|fail, score (rounded to 0.01), why (""
# for a pass: the reason or, for a part, how the points were earned) and
# excerpt (console lines for the grade files; "" for a pass).
proc pl_grade_test {test r} {
	set console [dict get $r console]
	set points [dict get $test points]
	set progs [pl_test_programs $test]
	set bootwhy [dict get $r why]
	set g [dict create status fail score 0 why "" excerpt ""]
	if {$bootwhy ne ""} {
		dict set g why [pl_join $bootwhy [pl_explain $progs $console]]
	} elseif {[set why [pl_check_test $test $console]] ne ""} {
		dict set g why [pl_join [pl_explain $progs $console] $why]
	} else {
		lassign [pl_tap_score $test $console] frac detail
		set score [expr {round($points * $frac * 100) / 100.0}]
		if {$frac >= 1} {
			return [dict create status pass score $points why "" \
			    excerpt ""]
		}
		dict set g score $score
		dict set g status [expr {$frac > 0 ? "part" : "fail"}]
		dict set g why $detail
	}
	dict set g excerpt [pl_excerpt $progs $console]
	return $g
}

proc pl_join {a b} {
	if {$a eq "" || $b eq ""} {
		return $a$b
	}
	return "$a; $b"
}

proc pl_check_test {test console} {
	foreach {op arg} [dict get $test checks] {
		if {$op eq "tap"} {
			continue
		}
		set why [pl_check_$op $arg $console]
		if {$why ne ""} {
			return $why
		}
	}
	return ""
}

proc pl_check_match {re console} {
	if {[regexp -line -- $re $console]} {
		return ""
	}
	return "missing /$re/[pl_near $re $console]"
}

proc pl_check_nomatch {re console} {
	if {![regexp -line -indices -- $re $console m]} {
		return ""
	}
	return "unexpected /$re/ in '[pl_line_at $console [lindex $m 0]]'"
}

# Each regex must match somewhere after the previous one's match.
proc pl_check_order {res console} {
	set pos 0
	set prev ""
	foreach re $res {
		if {![regexp -line -indices -start $pos -- $re $console m]} {
			if {$prev ne "" && [regexp -line -- $re $console]} {
				return "out of order: /$re/ does not come after /$prev/"
			}
			return "missing /$re/[pl_near $re $console]"
		}
		set pos [expr {[lindex $m 1] + 1}]
		set prev $re
	}
	return ""
}

# The programs a test names: its tap checks', then those whose === BEGIN or
# === END lines its regexes look for (regex escapes of . undone).
proc pl_test_programs {test} {
	set progs {}
	foreach {op arg} [dict get $test checks] {
		if {$op eq "tap"} {
			lappend progs [lindex $arg 0]
			continue
		}
		if {$op ne "order"} {
			set arg [list $arg]
		}
		foreach re $arg {
			if {[regexp {=== (?:BEGIN|END) ((?:[A-Za-z0-9_+-]|\\\.)+)} \
			    $re -> p]} {
				set p [string map {\\. .} $p]
				if {$p ni $progs} {
					lappend progs $p
				}
			}
		}
	}
	return $progs
}

# PROG's output in CONSOLE: a dict with found (0 when no === BEGIN line),
# text (the lines between BEGIN and END, or to the console's end when END
# never came) and rc (END's status, "" without one).
proc pl_tap_block {prog console} {
	regsub -all {[][{}()*+?.\\^$|]} $prog {\\&} q
	set b [dict create found 0 text "" rc ""]
	if {![regexp -line -indices -- "^=== BEGIN $q\r?\$" $console m]} {
		return $b
	}
	set start [expr {[lindex $m 1] + 2}]
	dict set b found 1
	if {[regexp -line -indices -start $start -- \
	    "^=== END $q rc=(\\d+)\r?\$" $console m rc]} {
		dict set b rc [string range $console {*}$rc]
		set end [expr {[lindex $m 0] - 2}]
	} else {
		set end [string length $console]
	}
	dict set b text [string range $console $start $end]
	return $b
}

# TAP lines of TEXT: a list of {ok description line} and the plan ("" if
# none: tap.h prints it first after plan(), else last, in done_testing).
proc pl_tap_lines {text} {
	set lines {}
	set plan ""
	foreach l [split $text \n] {
		set l [string trimright $l \r]
		if {[regexp {^(not )?ok\M(?: \d+)?(?: -)? ?(.*)$} $l -> no desc]} {
			lappend lines [list [expr {$no eq ""}] $desc $l]
		} elseif {$plan eq "" && [regexp {^1\.\.(\d+)\M} $l -> n]} {
			set plan $n
		}
	}
	return [list $lines $plan]
}

# The tap checks' pooled fraction of the points (1 when there are none) and
# how it was earned, e.g. "mmap_eof: 7/10 ok, rc=1, first failure: not ok
# 4 - ...".
proc pl_tap_score {test console} {
	set earned 0.0
	set total 0.0
	set details {}
	foreach {op arg} [dict get $test checks] {
		if {$op ne "tap"} {
			continue
		}
		lassign $arg prog weights
		lassign [pl_tap_prog $prog $weights $console] e t d
		set earned [expr {$earned + $e}]
		set total [expr {$total + $t}]
		lappend details $d
	}
	if {![llength $details]} {
		return [list 1 ""]
	}
	set frac [expr {$total > 0 ? $earned / $total : 0}]
	return [list $frac [join $details "; "]]
}

# One program's {earned total detail}.
proc pl_tap_prog {prog weights console} {
	set b [pl_tap_block $prog $console]
	if {![dict get $b found]} {
		return [list 0 1 "$prog: no '=== BEGIN $prog' line (never ran)"]
	}
	lassign [pl_tap_lines [dict get $b text]] lines plan
	set earned 0.0
	set total 0.0
	set nok 0
	set first ""
	foreach l $lines {
		lassign $l ok desc text
		set w 1
		foreach {re rw} $weights {
			if {[regexp -- $re $desc]} {
				set w $rw
				break
			}
		}
		set total [expr {$total + $w}]
		if {$ok} {
			set earned [expr {$earned + $w}]
			incr nok
		} elseif {$first eq ""} {
			set first $text
		}
	}
	set n [llength $lines]
	set rc [dict get $b rc]
	set notes {}
	if {$plan ne "" && $plan > $n} {
		set total [expr {$total + $plan - $n}]
		lappend notes "[expr {$plan - $n}] planned never printed"
	}
	if {$rc eq ""} {
		lappend notes "no '=== END $prog rc=' line"
	} elseif {$rc != 0} {
		lappend notes rc=$rc
	}
	if {$plan eq ""} {
		lappend notes "no plan line"
	} elseif {$plan < $n} {
		lappend notes "plan 1..$plan but $n lines"
	}
	set clean [expr {$rc ne "" && $plan ne "" && $plan == $n &&
	    ($rc == 0 || $nok < $n)}]
	if {!$clean} {
		set total [expr {$total + 1}]
	}
	if {$total == 0} {
		set total 1.0
		set earned 1.0
	}
	set d "$prog: $nok/$n ok"
	if {$earned != $nok || $total != $n} {
		append d " (counted [pl_fmt $earned]/[pl_fmt $total])"
	}
	foreach note $notes {
		append d ", $note"
	}
	if {$first ne ""} {
		append d ", first failure: [pl_clip $first]"
	}
	return [list $earned $total $d]
}

# "PROG rc=N, first failure: not ok ..." for the first of PROGS (or, when
# the test names none, the whole console) that printed a `not ok` line;
# else "PROG rc=N" for the first that ended non-zero; else "".
proc pl_explain {progs console} {
	if {![llength $progs]} {
		if {[regexp -line -- {^not ok\M.*$} $console l]} {
			return "first failure: [pl_clip $l]"
		}
		return ""
	}
	set rcwhy ""
	foreach p $progs {
		set b [pl_tap_block $p $console]
		if {![dict get $b found]} {
			continue
		}
		set rc [dict get $b rc]
		set head [expr {$rc eq "" ? "$p (no END line)" : "$p rc=$rc"}]
		if {[regexp -line -- {^not ok\M.*$} [dict get $b text] l]} {
			return "$head, first failure: [pl_clip $l]"
		}
		if {$rcwhy eq "" && $rc ne "0"} {
			set rcwhy $head
		}
	}
	return $rcwhy
}

# At most 40 lines for a student to read in the grade files: the first
# named program's block that failed (or the first found), else the end of
# the console. After a hang, then, the evidence in full, taken out of
# those lines (scripts/verdict.tcl, pl_hang_split): the first hung-task
# report and the last task dump (at most 200 lines each).
proc pl_excerpt {progs console} {
	lassign [pl_hang_split $console] console reports dump
	set out [pl_excerpt_pick $progs $console]
	if {[llength $reports]} {
		append out "\n--- hung task (the kernel's watchdog) ---\n" \
		    [pl_head [lindex $reports 0] 200]
	}
	if {$dump ne ""} {
		append out "\n--- task dump (the last: every task, its state,\
		    wait channel and stack) ---\n" [pl_head $dump 200]
	}
	return $out
}

# The first N lines of TEXT, and "..." when there were more.
proc pl_head {text n} {
	set lines [split [string trimright $text \n] \n]
	if {[llength $lines] > $n} {
		set lines [list {*}[lrange $lines 0 [expr {$n - 1}]] "..."]
	}
	return [join $lines \n]
}

proc pl_excerpt_pick {progs console} {
	set pick ""
	foreach p $progs {
		set b [pl_tap_block $p $console]
		if {![dict get $b found]} {
			continue
		}
		set text "=== BEGIN $p\n[dict get $b text]"
		if {[dict get $b rc] ne ""} {
			append text "\n=== END $p rc=[dict get $b rc]"
		}
		if {$pick eq ""} {
			set pick $text
		}
		if {[dict get $b rc] ne "0" ||
		    [regexp -line {^not ok\M} [dict get $b text]]} {
			set pick $text
			break
		}
	}
	if {$pick eq ""} {
		set pick $console
	}
	set lines [split [string trimright $pick \n] \n]
	if {[llength $lines] > 40} {
		set lines [list "..." {*}[lrange $lines end-39 end]]
	}
	return [join $lines \n]
}

# X with at most two decimals, no trailing zeros.
proc pl_fmt {x} {
	set s [format %.2f $x]
	regsub {\.?0+$} $s "" s
	return [expr {$s eq "" || $s eq "-" ? "0" : $s}]
}

namespace eval pl {
	variable caret {}
	for {set n 0} {$n < 32} {incr n} {
		lappend caret [format %c $n] ^[format %c [expr {$n + 64}]]
	}
	lappend caret \x7f ^?
}

# The whole console line around character index I, trimmed.
proc pl_line_at {console i} {
	set a [string last \n $console $i]
	set b [string first \n $console $i]
	if {$b < 0} {
		set b [string length $console]
	}
	return [pl_clip [string range $console [expr {$a + 1}] [expr {$b - 1}]]]
}

# S trimmed, control characters shown as ^X (a report line goes to a
# terminal), at most 120 characters.
proc pl_clip {s} {
	set s [string map $::pl::caret [string trim $s]]
	if {[string length $s] > 120} {
		set s [string range $s 0 116]...
	}
	return $s
}

# "; got 'LINE'" for the first console line holding the longest literal
# piece of RE (4 characters at least), or "" when no line does.
proc pl_near {re console} {
	set best ""
	regsub -all {\\.} $re \x01 plain
	foreach piece [regexp -all -inline {[^][\x01(){}.*+?^$|]+} $plain] {
		set piece [string trim $piece]
		if {[string length $piece] > [string length $best]} {
			set best $piece
		}
	}
	if {[string length $best] < 4} {
		return ""
	}
	set i [string first $best $console]
	if {$i < 0} {
		return "; no console line has '$best'"
	}
	return "; got '[pl_line_at $console $i]'"
}
