# scripts/check.tcl -- judge one test against its boot's console log.
#
# A test passes when its boot was sound (scripts/lib.tcl, pl_judge) and
# every check holds.  When one does not, the reason shows what was expected
# and, where a console line looks like it, what came instead:
#   missing /Command line: poweroff x=1/; got 'Command line: poweroff x=2'
#
# Roadmap:
#   pl_check_test      the first failing check's reason, or ""
#   pl_check_match, pl_check_nomatch, pl_check_order
#   pl_near            the console line that comes closest to a regex

proc pl_check_test {test console} {
	foreach {op arg} [dict get $test checks] {
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

# The whole console line around character index I, trimmed.
proc pl_line_at {console i} {
	set a [string last \n $console $i]
	set b [string first \n $console $i]
	if {$b < 0} {
		set b [string length $console]
	}
	return [pl_clip [string range $console [expr {$a + 1}] [expr {$b - 1}]]]
}

proc pl_clip {s} {
	set s [string trim $s]
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
