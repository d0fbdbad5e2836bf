# scripts/verdict.tcl -- how a test boot ended, in words.
#
# Pintos-style: a panic nobody expected, a reboot, a missing banner or
# boot-complete line, a wrong power-off status, a timeout or an e2fsck
# complaint (scripts/disks.tcl) fails the whole boot, and with it every test
# attached to it, whatever the console matched.  The state read here is the
# S array that scripts/lib.tcl fills while the boot runs.
#
# Roadmap:
#   pl_judge           "" or why the boot failed; pl_judge_panic,
#                      pl_judge_halt and pl_judge_exit judge the ways a
#                      boot may end
#   pl_judge_linux     a boot of Debian's Linux (`linux yes`)
#   pl_judge_run       why a host command that ran scripts/pagelab-run
#                      failed, from what pagelab-run printed
#   pl_describe_exit   QEMU's exit code in words
#   pl_last_line       the console's last line, for "what came instead"
#   pl_hang_split      a hang's evidence apart from the rest of a console:
#                      hung-task reports, the last task dump (sysrq t)
#   pl_with_hang       a reason with that evidence in a few words
#   pl_write_log       build/test-logs/BOOT.log: command (and for a programs
#                      boot the pagelab-run command that replays it),
#                      console, verdict
#   pl_shell_quote     the QEMU command as a line to paste into a shell

# Without TEXT: the guest's own last line, before a task dump the harness
# asked for (pl_ask_task_dump) and not one of a hang's evidence (a hung-task
# report, a task dump: pl_with_hang quotes them).
proc pl_last_line {{text ""}} {
	global S
	if {$text eq ""} {
		set text $S(console)
		if {[info exists S(dumpat)] && $S(dumpat) ne ""} {
			set text [string range $text 0 [expr {$S(dumpat) - 1}]]
		}
		set text [lindex [pl_hang_split $text] 0]
	}
	set lines [split [string trim $text] \n]
	set last [string trim [lindex $lines end]]
	if {$last eq ""} {
		return "(nothing)"
	}
	if {[string length $last] > 100} {
		set last [string range $last 0 96]...
	}
	return "'$last'"
}

# The verdict on the boot as a whole: "" or why every test of it fails.
proc pl_judge {boot stepwhy how code secs} {
	global S
	set t [format %g $secs]
	if {[info exists S(deadline)] && [info exists S(t0)]} {
		# the time it was given: shorter than secs after a giveup line
		set t [format %g [expr {min($secs,
		    ($S(deadline) - $S(t0)) / 1000.0)}]]
	}
	if {!$S(watch)} {
		if {$stepwhy ne ""} {
			return $stepwhy
		}
		if {$how eq "timeout"} {
			return [pl_with_hang "timeout: still running after ${t}s"\
			    $S(console)]
		}
		set want [dict get $boot exit]
		if {$code != $want} {
			set why [pl_judge_run]
			if {$why ne ""} {
				return $why
			}
			return "exit status $code, expected $want"
		}
		return ""
	}
	if {[dict get $boot linux]} {
		return [pl_judge_linux $stepwhy $how $code $t]
	}
	if {$S(banners) > 1} {
		return "guest rebooted: the banner was printed $S(banners) times"
	}
	if {$S(panic) ne "" && ![dict get $boot panic]} {
		return "unexpected kernel panic: $S(panic)"
	}
	if {$S(banners) == 0} {
		return "no banner ('pagelab version') on the console;\
		    last line [pl_last_line]"
	}
	if {$stepwhy ne ""} {
		return [pl_with_hang $stepwhy $S(console)]
	}
	if {[dict get $boot panic]} {
		return [pl_with_hang [pl_judge_panic $how $code $t] $S(console)]
	}
	set end [dict get $boot end]
	if {$how eq "halted" || $end eq "halt"} {
		set why [pl_judge_halt $how $end $t]
	} elseif {$how eq "timeout"} {
		return [pl_with_hang "timeout: no power-off within ${t}s;\
		    last line [pl_last_line]" $S(console)]
	} else {
		set ex [expr {$code eq "" ? "" : [pl_decode_exit $code]}]
		set why [pl_judge_exit $ex [dict get $boot exit] $end]
	}
	if {$why eq "" && !$S(complete)} {
		set why "no 'pagelab: boot complete' line"
	}
	if {$why eq "" && $S(leak) ne ""} {
		set why "page leak: $S(leak)"
	}
	return $why
}

# Debian's Linux, quiet, prints no banner; it powers off through ACPI, so
# QEMU exits 0 after its "reboot: Power down" line, and with panic=-1 and
# -no-reboot a panic (or a reset) ends QEMU with 0 too, without that line.
proc pl_judge_linux {stepwhy how code t} {
	global S
	if {$stepwhy ne ""} {
		return $stepwhy
	}
	if {$how eq "timeout"} {
		return "timeout: no power-off within ${t}s; last line [pl_last_line]"
	}
	if {$code eq "0" && $S(powerdown)} {
		return ""
	}
	set end [expr {$code eq "" ? "killed" : $code != 0 ?
	    "QEMU exit code $code" : $S(panic) ne "" ? "panic" : "reset"}]
	return "the machine did not boot and power off ($end)"
}

# scripts/pagelab-run, run as a host command, says why it failed on a
# line of its own, in the harness's words (it runs the same boots):
# "pagelab-run: FAIL: WHY".  Returns WHY, a timeout marked as
# pagelab-run's own (the harness's says "still running"), or "".
proc pl_judge_run {} {
	global S
	if {![regexp -line {^pagelab-run: FAIL: (.*)$} $S(console) -> why]} {
		return ""
	}
	regsub {^timeout: no power-off within [\d.]+s} $why \
	    {& (scripts/pagelab-run)} why
	return $why
}

# A hang's evidence, apart from the rest of CONSOLE: {REST REPORTS DUMP}.
# REPORTS are the hung-task watchdog's reports (kernel/hung_task.c: an
# "INFO: task NAME:PID blocked for more than N seconds." line and its call
# trace), DUMP the last task dump (kernel/sched/show.c: from "task dump: N
# tasks" to "task dump: end"; one cut short only when none is whole), REST
# every other line. Other dumps and the "sysrq: Show State" lines are in
# none of them: the last dump says the most. (The harness's dump and the
# hung-task watchdog's may come one after the other, the harness reading
# only the first to its end.)
proc pl_hang_split {console} {
	set ts $pl::ts
	set rest {}
	set reports {}
	set dumps {}
	set in ""
	foreach l [split $console \n] {
		if {[regexp "${ts}INFO: task \\S+ blocked for more than " $l]} {
			set in report
			lappend reports $l
			continue
		}
		if {[regexp "${ts}task dump: \\d+ tasks" $l]} {
			set in dump
			lappend dumps $l
			continue
		}
		if {$in eq "dump"} {
			lset dumps end "[lindex $dumps end]\n$l"
			if {[regexp "${ts}task dump: end" $l]} {
				set in ""
			}
			continue
		}
		if {$in eq "report" &&
		    [regexp "${ts}(Call Trace:| \\S+\\+0x| \\? 0x)" $l]} {
			lset reports end "[lindex $reports end]\n$l"
			continue
		}
		set in ""
		if {![regexp "${ts}sysrq: Show State" $l]} {
			lappend rest $l
		}
	}
	set dump [lindex $dumps end]
	foreach d [lreverse $dumps] {
		if {[regexp "${ts}task dump: end" $d]} {
			set dump $d
			break
		}
	}
	return [list [join $rest \n] $reports $dump]
}

# WHY, and when CONSOLE holds a hang's evidence, the first hung-task
# report's line and the last task dump in a few words: each task but the
# kernel's own threads (parent 0, but init), NAME[PID] STATE and where it
# waits, e.g. "task dump: init[1] S __se_sys_wait4, prog[7] D lock_page".
proc pl_with_hang {why console} {
	if {$why eq ""} {
		return ""
	}
	lassign [pl_hang_split $console] - reports dump
	set ev {}
	if {[llength $reports] &&
	    [regexp {(INFO: task .*)$} [lindex [split [lindex $reports 0] \n] 0] \
	    -> info]} {
		lappend ev [string trim $info]
	}
	set tasks {}
	foreach l [split $dump \n] {
		if {[regexp {task:(\S+) +state:(\S) pid:(\d+) +ppid:(\d+) +wchan:(\S+)} \
		    $l -> name st pid ppid wchan] && ($ppid != 0 || $pid == 1)} {
			lappend tasks [expr {$wchan eq "-" ? "$name\[$pid\] $st" :
			    "$name\[$pid\] $st $wchan"}]
		}
	}
	if {$dump ne ""} {
		lappend ev "task dump: [join $tasks {, }]"
	}
	if {![llength $ev]} {
		return $why
	}
	return "$why; [join $ev {; }]"
}

proc pl_judge_panic {how code t} {
	global S
	if {$S(panic) eq ""} {
		if {$how eq "timeout"} {
			return "expected a kernel panic, got none within ${t}s;\
			    last line [pl_last_line]"
		}
		return "expected a kernel panic, got none\
		    ([pl_describe_exit $code]); last line [pl_last_line]"
	}
	if {$how eq "panic-hang"} {
		return "the panic never printed its '---\[ end Kernel panic' line"
	}
	return ""
}

proc pl_describe_exit {code} {
	if {$code eq ""} {
		return "killed"
	}
	set ex [pl_decode_exit $code]
	switch -- [lindex $ex 0] {
	poweroff { return "guest powered off with status [lindex $ex 1]" }
	reset { return "guest reset or triple-faulted" }
	}
	return "QEMU exit code $code"
}

# A halt ends no QEMU: pl_finish stops it once the kernel said so.
proc pl_judge_halt {how end t} {
	if {$how eq "halted" && $end eq "halt"} {
		return ""
	}
	if {$how eq "halted"} {
		return "guest halted (pagelab: system halted), expected $end"
	}
	if {$how eq "timeout"} {
		return "timeout: no halt within ${t}s; last line [pl_last_line]"
	}
	return "expected the guest to halt, but it ended otherwise"
}

# END: the boot's `end` (poweroff or reset); a reset counts only after
# the kernel's restart line (a triple fault resets QEMU too).
proc pl_judge_exit {ex want {end poweroff}} {
	global S
	if {$ex eq ""} {
		return "QEMU did not exit normally"
	}
	if {$end eq "reset"} {
		if {[lindex $ex 0] eq "reset" && $S(restart)} {
			return ""
		}
		if {[lindex $ex 0] eq "reset"} {
			return "expected a restart, got a reset without the\
			    kernel's 'pagelab: restarting system' (a triple\
			    fault?)"
		}
		return "expected a restart, got: [pl_describe_exit \
		    [expr {[lindex $ex 0] eq "poweroff" ?
		    2 * [lindex $ex 1] + 1 : [lindex $ex 1]}]]"
	}
	switch -- [lindex $ex 0] {
	reset {
		return "guest reset or triple-faulted\
		    (QEMU exited without a power-off)"
	}
	error {
		return "QEMU failed with exit code [lindex $ex 1]"
	}
	}
	set got [lindex $ex 1]
	if {$got != $want} {
		return "guest powered off with status $got, expected $want"
	}
	return ""
}

# Keep the whole run in build/test-logs/BOOT.log (PAGELAB_LOGDIR instead,
# if set: scripts/check-lab keeps a student tree's logs apart): what ran,
# the console, how it ended and the verdict.  Returns the log's path.
proc pl_write_log {boot why code secs banner} {
	global S
	set dir build/test-logs
	if {[info exists ::env(PAGELAB_LOGDIR)] && $::env(PAGELAB_LOGDIR) ne ""} {
		set dir $::env(PAGELAB_LOGDIR)
	}
	file mkdir $dir
	set log $dir/[dict get $boot name].log
	set f [open $log w]
	puts $f "# pagelab test log: boot [dict get $boot name]\
	    ([dict get $boot file]:[dict get $boot line])"
	puts $f "# command: [pl_shell_quote $S(cmd)]"
	if {$S(replay) ne ""} {
		puts $f "# replay: $S(replay)"
	}
	puts $f "# timeout: [pl_scale [dict get $boot timeout]]s\
	    (PAGELAB_TIMEOUT_SCALE applied)"
	puts $f "# ---- console ----"
	puts -nonewline $f $S(console)
	if {[string index $S(console) end] ne "\n"} {
		puts $f ""
	}
	puts $f "# ---- end of console ----"
	if {$banner ne ""} {
		puts $f [format "# banner after %.3fs (host wall clock)" $banner]
	}
	puts $f [format "# run took %.3fs; exit code %s" $secs \
	    [expr {$code eq "" ? "none (killed)" : $code}]]
	if {$S(fsck) ne ""} {
		puts -nonewline $f $S(fsck)
	}
	puts $f "# verdict: [expr {$why eq "" ? "ok" : "FAIL: $why"}]"
	close $f
	return $log
}

# ARGV as a line one can paste into a shell.
proc pl_shell_quote {argv} {
	set out {}
	foreach a $argv {
		if {[regexp {^[-A-Za-z0-9_./=,:+@%]+$} $a]} {
			lappend out $a
		} else {
			lappend out '[string map {' '\\''} $a]'
		}
	}
	return [join $out " "]
}
