# scripts/lib.tcl -- the expect library that runs one test boot.
#
# A "boot" (one `boot` line of a tests list, see scripts/testlist.tcl) is one
# QEMU run: spawn QEMU with the serial console on a pty, play the boot's
# interactive steps (send a line, wait for a regex), wait for the guest to
# power off, check its disks with e2fsck, and judge the run as a whole.
# The tests attached to the boot are then checked against the console log by
# scripts/check.tcl.  A boot may run programs instead of a shell (`run`:
# scripts/programs.tcl, which also reads the guest's second serial port),
# or be a host command (`command`), which is how the harness tests itself.
# scripts/run-tests runs the boots of the lists; scripts/pagelab-run runs
# one boot made from its command line, with its console on stdout.
#
# Roadmap:
#   pl_run_boot        the whole run of one boot -> result dict
#   pl_spawn, pl_read  start the process; read what comes next
#   pl_take, pl_emit   fold a chunk of console output into the console
#   pl_scan_line       notice banner, boot complete, panic, end of panic
#   pl_run_steps       send / sendraw / wait steps, each with its own timeout
#   pl_finish          wait for power-off; kill QEMU after a panic or reboot
#   pl_kill            kill the process (a host command: SIGTERM first)
#   pl_ask_task_dump   before killing a guest that timed out: sysrq t
# and beside it:
#   scripts/disks.tcl     the boot's scratch directory; fresh disk copies
#                         before the run, e2fsck -fn after
#   scripts/programs.tcl  a boot that runs programs
#   scripts/verdict.tcl   the verdict on the boot as a whole and its log,
#                         build/test-logs/BOOT.log
#
# Console text is kept with \r\n folded to \n, and without the cursor
# position query (ESC [ 6 n) that busybox's line editor prints after each
# prompt of the interactive shell (nobody answers it here).  Regexes are Tcl AREs matched
# in newline-sensitive mode (regexp -line): `.` does not cross lines and
# ^ and $ match at line boundaries.

package require Expect
set pl_dir [file dirname [file normalize [info script]]]
source [file join $pl_dir qemu.tcl]
source [file join $pl_dir disks.tcl]
source [file join $pl_dir programs.tcl]
source [file join $pl_dir verdict.tcl]

log_user 0
match_max 200000

# Regexes for the kernel's console conventions.  printk puts a
# "[    0.012345] " timestamp in front of every kernel line; requiring it
# keeps a user program that prints "BUG: ..." or cats /proc/version from
# passing for a kernel oops or a second boot.
namespace eval pl {
	variable ts {\[ *\d+\.\d+\] }
	variable re_banner "${ts}pagelab version "
	variable re_complete "${ts}pagelab: boot complete"
	variable re_panic "${ts}((?:Kernel panic - not syncing|BUG|Oops): .*)"
	variable re_panic_end {---\[ end Kernel panic}
	# reboot(2)'s two other ends (kernel/power.c).
	variable re_halted "${ts}pagelab: system halted"
	variable re_restart "${ts}pagelab: restarting system"
	# Linux's last word, quiet or not (a boot with `linux yes`).
	variable re_powerdown "${ts}reboot: Power down"
	# After the first sign of a panic, how long to wait for its end line.
	variable panic_grace 5
	# A task dump (sysrq t) asked of a guest that timed out: how long to
	# wait for its first byte, for each next one (a busy host can starve
	# QEMU for a while), and at most in all.
	variable re_dump_end "${ts}task dump: end"
	variable dump_first 1
	variable dump_quiet 2
	variable dump_wait 20
	# A host command that timed out: how long it has, after SIGTERM, to
	# say its last words (scripts/pagelab-run asks for a task dump too).
	variable term_grace 30
	# pl_signal_watch: the watcher's output, what to call per signal, and
	# the signals read but not yet answered.
	variable signal_chan ""
	variable signal_cmd ""
	variable signals {}
}

# Per-boot state, reset by pl_state_reset:
#   S(id) S(pid)       the spawned process
#   S(console)         everything it printed so far
#   S(echo)            1: print the console as it comes too
#   S(cr)              the \r run (or the start of an escape) that ended
#                      the last chunk, held back
#   S(scanpos)         start of the first line pl_scan_line has not seen
#   S(steppos)         where the next `wait` step starts looking
#   S(t0)              ms clock at spawn; S(deadline) when the boot times out
#   S(banners) S(banner_ms) S(complete) S(panic) S(panic_ms) S(panic_end)
#   S(halted) S(restart) S(powerdown)   what the kernel said
#   S(eof) S(killed)   how the process ended
#   S(dumpat)          console length when a task dump was asked for ("":
#                      never), where the guest's own last line ends;
#                      S(dumped) once its end line came
#   S(fsck)            e2fsck's output for the log
#   S(replay)          a programs boot as a pagelab-run command, for the log
#   S(run) ...         a boot that runs programs: scripts/programs.tcl
proc pl_state_reset {boot echo} {
	global S
	array unset S
	array set S {console "" cr "" scanpos 0 steppos 0 banners 0
	    banner_ms "" complete 0 panic "" panic_ms 0 panic_end 0 halted 0
	    restart 0 powerdown 0
	    eof 0 killed 0 watch 1 cmd "" replay "" fsck "" dumpat "" dumped 0}
	set S(watch) [expr {[dict get $boot command] eq ""}]
	set S(giveup) [dict get $boot giveup]
	set S(echo) $echo
	pl_run_reset $boot
}

# Run BOOT (a dict from pl_parse_list).  HOW: quiet (run-tests), verbose
# (run-tests -v: the console as it comes, then a line on the boot) or
# echo (scripts/pagelab-run: the console as it comes, and no log).
# Returns a dict:
#   why      "" when the boot as a whole is sound, else the reason it failed
#   console  the console text       log      path of the kept log
#   secs     wall time of the run   banner   seconds from spawn to banner
proc pl_run_boot {boot {how quiet}} {
	global S
	pl_state_reset $boot [expr {$how ne "quiet"}]
	set S(how) $how
	if {[catch {
		set dir [pl_scratch_make $boot]
		set disks [pl_disks_prepare $boot $dir]
		if {$S(run)} {
			set S(replay) [pl_run_replay $boot]
		}
		set boot [pl_run_prepare $boot $dir]
		set argv [pl_boot_argv $boot $disks $dir]
	} msg]} {
		return [pl_result $boot "setup failed: $msg" ""]
	}
	set secs [pl_scale [dict get $boot timeout]]
	set S(cmd) $argv
	if {[auto_execok [lindex $argv 0]] eq ""} {
		return [pl_result $boot "setup failed: cannot run\
		    [lindex $argv 0] (scripts/deps installs the tools)" ""]
	}
	# What a host command writes goes in its scratch directory.
	set ::env(SCRATCH) [file normalize $dir]
	pl_run_open $dir
	# PAGELAB_CMDLINE is for this run's guests: a host command (a nested
	# harness run, check-lab, a fixture that checks a command line) sees
	# the boots it makes as they are written.
	set cmdline_words ""
	if {[dict get $boot command] ne "" && [info exists ::env(PAGELAB_CMDLINE)]} {
		set cmdline_words $::env(PAGELAB_CMDLINE)
		unset ::env(PAGELAB_CMDLINE)
	}
	pl_spawn $argv $secs
	if {$cmdline_words ne ""} {
		set ::env(PAGELAB_CMDLINE) $cmdline_words
	}
	set stepwhy [pl_run_steps $boot]
	if {$stepwhy eq ""} {
		set end [pl_finish $boot]
	} else {
		pl_ask_task_dump
		pl_kill
		set end step
	}
	set code [pl_reap]
	pl_run_drain
	set fsckwhy [pl_disks_check $disks [pl_unclean $end $code]]
	set why [pl_judge $boot $stepwhy $end $code $secs]
	if {$why eq ""} {
		set why $fsckwhy
	} elseif {$fsckwhy ne ""} {
		append why "; $fsckwhy"
	}
	set r [pl_result $boot $why $code]
	if {$why eq ""} {
		pl_scratch_cleanup $boot
	}
	return $r
}

proc pl_result {boot why code} {
	global S
	set secs [expr {[info exists S(t0)] ?
	    ([clock milliseconds] - $S(t0)) / 1000.0 : 0}]
	set banner [expr {$S(banner_ms) eq "" ? "" :
	    ($S(banner_ms) - $S(t0)) / 1000.0}]
	set log ""
	if {$S(how) ne "echo"} {
		set log [pl_write_log $boot $why $code $secs $banner]
	}
	if {$S(how) eq "verbose"} {
		if {$S(console) ne "" && [string index $S(console) end] ne "\n"} {
			puts ""
		}
		puts [format "== boot %s: %.1fs%s, %s" [dict get $boot name] \
		    $secs [expr {$banner eq "" ? "" :
		    [format ", banner after %.2fs" $banner]}] \
		    [expr {$why eq "" ? "ok" : $why}]]
	}
	return [dict create why $why console $S(console) log $log \
	    secs $secs banner $banner]
}

# The argv of the process to spawn for BOOT; DIR is its scratch directory.
proc pl_boot_argv {boot disks dir} {
	if {[dict get $boot command] ne ""} {
		# A shell in between outlives the command's own exit: an expect
		# script (run-tests itself) closes its stdout before it exits,
		# and our eof would hang it up before its exit status is set.
		return [list sh -c {"$@"; exit $?} sh {*}[dict get $boot command]]
	}
	set bin [dict get $boot emulator]
	if {$bin eq ""} {
		set bin [pl_qemu_binary]
	}
	set initrd [dict get $boot initrd]
	if {$initrd eq "default"} {
		set initrd [pl_default_initrd]
	}
	set kernel [dict get $boot kernel]
	if {[dict get $boot kernel-why] ne ""} {
		error [dict get $boot kernel-why]
	}
	if {[dict get $boot emulator] eq "" && ![file exists $kernel]} {
		error "no kernel at $kernel (run make first)"
	}
	set argv [list $bin {*}[pl_qemu_machine [dict get $boot smp]]]
	# A test boot needs none of QEMU's default devices (the VGA card, the
	# empty CD-ROM and floppy): without them a boot takes about 50 ms
	# less CPU time, some 25 CPU-seconds over make test. (make run keeps
	# them, for a window; so does a GRUB ISO boot, which boots as make
	# run-iso does, from the default CD drive.)
	if {[dict get $boot mode] ne "iso"} {
		lappend argv -nodefaults
	}
	lappend argv {*}[pl_firmware_args [pl_boot_firmware $boot]]
	lappend argv {*}[pl_qemu_boot_args [dict get $boot mode] $kernel \
	    [dict get $boot cmdline] $initrd $dir/grub.iso]
	foreach d $disks {
		lappend argv -drive [pl_drive [dict get $d img]]
	}
	return [list {*}$argv {*}[dict get $boot qemu]]
}

proc pl_spawn {argv secs} {
	global S
	set S(t0) [clock milliseconds]
	set S(deadline) [expr {$S(t0) + int($secs * 1000)}]
	set S(pid) [spawn -noecho {*}$argv]
	set S(id) $spawn_id
}

# Read whatever comes next on the console, waiting until DEADLINE (ms
# clock) at most; a programs boot's second port is read meanwhile, from
# inside the wait (pl_run_read).  Returns data, eof or timeout.
proc pl_read {deadline} {
	global S
	set cases [list -i $S(id) -re {.+} {
		pl_take $expect_out(0,string)
		set r data
	} full_buffer {
		pl_take $expect_out(buffer)
		set r data
	} eof {
		if {[info exists expect_out(buffer)]} {
			pl_take $expect_out(buffer)
		}
		set S(eof) 1
		set r eof
	} timeout {
	}]
	# A second at a time: a signal's trap (SIGTERM from a harness giving
	# up on pagelab-run) runs only when expect returns, and a hung guest
	# that prints nothing would otherwise keep it waiting to the deadline
	# (the harness then killed pagelab-run before it could ask for the
	# task dump: harness_keeps_a_hangs_evidence, now and then).
	# QEMU writes the console to its pty a byte at a time, and expect
	# read it some 7 bytes per wake-up: under `perf record -a`,
	# tests/truncate.list spent 14% of its samples in expect, against 6%
	# with this pause, which lets a burst gather (a line or a screenful
	# is then one read) at the cost of 20 ms per read.
	after 20
	while 1 {
		set left [expr {$deadline - [clock milliseconds]}]
		if {$left <= 0} {
			return timeout
		}
		set timeout [expr {min(1, ($left + 999) / 1000)}]
		set r timeout
		expect {*}$cases
		pl_signal_take
		if {$r ne "timeout"} {
			return $r
		}
	}
}

# Signals as lines, for a script that must answer SIGTERM while it waits
# in expect (scripts/pagelab-run).  Expect's trap is not safe for that:
# its C handler calls Tcl_AsyncMark, which in Tcl 8.6's threaded notifier
# takes the notifier's mutex, and a signal that lands while this thread
# holds that mutex (inside Tcl_WaitForEvent) deadlocks the script for good
# (gdb on a hung pagelab-run: the main thread in Tcl_AlertNotifier under
# a signal frame, waiting for the lock it took itself; about 1 in 6 under
# load).  So a shell in our process group traps SIGS and prints each
# one's name (TERM), we ignore SIGS ourselves, and pl_read calls CMD NAME
# for each line once its expect returns (within a second).
# pl_signal_unwatch: SIGS back to their default action, and any signal
# that came meanwhile (or "").
proc pl_signal_watch {cmd sigs} {
	set script ""
	foreach s $sigs {
		set s [regsub {^SIG} $s ""]
		append script "trap 'echo $s' $s; "
	}
	# The watcher leaves when we do; "wait" lets a trap run at once.
	append script {while kill -0 $PPID 2>/dev/null; do sleep 1 & wait $!; done}
	set chan [open "|[list sh -c $script] </dev/null" r]
	fconfigure $chan -blocking 0	;# closing it then waits for no one
	fileevent $chan readable pl_signal_read
	set pl::signal_chan $chan
	set pl::signal_cmd $cmd
	trap SIG_IGN $sigs
}

# The watcher's lines so far, kept for pl_signal_take; Tcl calls this from
# inside expect's waits (as pl_run_read), which only note the signal: the
# answer may itself wait in expect, so it comes after expect returns.
proc pl_signal_read {} {
	set chan $pl::signal_chan
	while {[gets $chan line] >= 0} {
		lappend pl::signals $line
	}
	if {[eof $chan]} {
		close $chan
		set pl::signal_chan ""
	}
}

# Answer the first signal noted, if any (signal_cmd may not return).
proc pl_signal_take {} {
	if {[llength $pl::signals]} {
		set sig [lindex $pl::signals 0]
		set pl::signals [lrange $pl::signals 1 end]
		{*}$pl::signal_cmd $sig
	}
}

proc pl_signal_unwatch {sigs} {
	trap SIG_DFL $sigs
	if {$pl::signal_chan ne ""} {
		pl_signal_read
	}
	return [lindex $pl::signals 0]
}

# Fold CHUNK into the console (folding \r\n and \r\r\n to \n and dropping
# ESC [ 6 n, even across chunks: a chunk's trailing \r run or start of an
# escape is held back for the next) and scan the lines it completes.  A
# programs boot takes the console a line at a time (pl_run_console).
proc pl_take {chunk} {
	global S
	set chunk $S(cr)$chunk
	regexp {^(.*?)(\r*|\x1b\[?6?)$} $chunk -> chunk S(cr)
	set chunk [pl_fold $chunk]
	if {$S(run)} {
		pl_run_console $chunk
		return
	}
	pl_emit $chunk
	if {!$S(watch) && $S(giveup) eq ""} {
		return
	}
	set end [string last \n $S(console)]
	if {$end < $S(scanpos)} {
		return
	}
	set lines [string range $S(console) $S(scanpos) [expr {$end - 1}]]
	set S(scanpos) [expr {$end + 1}]
	foreach line [split $lines \n] {
		pl_scan_line $line
	}
}

proc pl_fold {text} {
	regsub -all {\x1b\[6n} $text {} text
	regsub -all {\r+\n} $text \n text
	return $text
}

# TEXT onto the console; printed too (as ECHO, if given) when S(echo).
proc pl_emit {text {echo ""}} {
	global S
	append S(console) $text
	if {$S(echo)} {
		puts -nonewline [expr {$echo eq "" ? $text : $echo}]
		flush stdout
	}
}

proc pl_scan_line {line} {
	global S
	if {$S(giveup) ne "" && [regexp -- [lindex $S(giveup) 0] $line]} {
		set at [expr {[clock milliseconds] +
		    int([pl_scale [lindex $S(giveup) 1]] * 1000)}]
		set S(deadline) [expr {min($S(deadline), $at)}]
		set S(giveup) ""
	}
	if {!$S(watch)} {
		return	;# a host command's lines: only giveup looks at them
	}
	if {[regexp $pl::re_banner $line]} {
		incr S(banners)
		if {$S(banner_ms) eq ""} {
			set S(banner_ms) [clock milliseconds]
		}
	}
	if {[regexp $pl::re_complete $line]} {
		set S(complete) 1
	}
	if {$S(panic) eq "" && [regexp $pl::re_panic $line -> what]} {
		set S(panic) [string trim $what]
		set S(panic_ms) [clock milliseconds]
	}
	if {[regexp $pl::re_panic_end $line]} {
		set S(panic_end) 1
	}
	if {[regexp $pl::re_halted $line]} {
		set S(halted) 1
	}

	if {[regexp $pl::re_restart $line]} {
		set S(restart) 1
	}
	if {[regexp $pl::re_powerdown $line]} {
		set S(powerdown) 1
	}
	if {$S(dumpat) ne "" && [regexp $pl::re_dump_end $line]} {
		set S(dumped) 1
	}
}

# True once the run cannot go on: the process is gone, the kernel panicked
# or the guest rebooted.
proc pl_stopped {} {
	global S
	expr {$S(eof) || $S(panic) ne "" || $S(banners) > 1}
}

# Play the boot's steps in order.  Returns "" or why a step failed.  A
# panic or reboot stops the steps silently: pl_judge reports those.
proc pl_run_steps {boot} {
	global S
	foreach step [dict get $boot steps] {
		if {[pl_stopped]} {
			return ""
		}
		lassign $step op arg secs
		switch -- $op {
		send {
			exp_send -i $S(id) -- "$arg\r"
		}
		sendraw {
			exp_send -i $S(id) -- \
			    [subst -nocommands -novariables $arg]
		}
		wait {
			set why [pl_wait $arg $secs]
			if {$why ne ""} {
				return $why
			}
		}
		}
	}
	return ""
}

# Wait until RE matches the console after the previous wait's match, for
# SECS seconds (scaled; "" = until the boot's deadline).
proc pl_wait {re secs} {
	global S
	set deadline $S(deadline)
	if {$secs ne ""} {
		set secs [pl_scale $secs]
		set deadline [expr {min($deadline,
		    [clock milliseconds] + int($secs * 1000))}]
	} else {
		set secs [expr {($S(deadline) - $S(t0)) / 1000.0}]
	}
	while {1} {
		if {[regexp -line -indices -start $S(steppos) -- $re \
		    $S(console) m]} {
			set S(steppos) [expr {[lindex $m 1] + 1}]
			return ""
		}
		if {$S(panic) ne "" || $S(banners) > 1} {
			return ""
		}
		if {$S(eof)} {
			return "the machine stopped before /$re/ appeared"
		}
		if {[pl_read $deadline] eq "timeout"} {
			return [format "timeout: no /%s/ within %gs" $re $secs]
		}
	}
}

# After the steps: wait for the process to end by itself.  Returns how it
# ended: exited, panic (killed after the panic's end line), panic-hang
# (no end line within the grace time), halted (killed after the kernel
# said so: a halted machine stays on), reboot (killed) or timeout (killed).
proc pl_finish {boot} {
	global S
	while {1} {
		if {$S(eof)} {
			return exited
		}
		if {$S(halted)} {
			pl_kill
			return halted
		}
		if {$S(panic_end)} {
			pl_kill
			return panic
		}
		if {$S(banners) > 1} {
			pl_kill
			return reboot
		}
		set deadline $S(deadline)
		if {$S(panic) ne ""} {
			set grace [expr {int([pl_scale $pl::panic_grace] * 1000)}]
			set deadline [expr {min($deadline, $S(panic_ms) + $grace)}]
		}
		if {[pl_read $deadline] eq "timeout"} {
			if {$S(panic) ne ""} {
				pl_kill
				return panic-hang
			}
			pl_ask_task_dump
			pl_kill
			return timeout
		}
	}
}

# A guest that did not do what it should in time is stuck, or slow:
# before it is killed, ask its kernel where every task is, so that the log
# (and the FAIL line, scripts/verdict.tcl) shows it. Magic SysRq t
# (kernel/sysrq.c): a BREAK on the console, which is QEMU's Ctrl-A B on
# -serial mon:stdio, then t. The dump ends with a "task dump: end" line;
# read until it comes, or until the console is quiet for dump_first
# seconds before any output (a kernel stuck with interrupts off, a machine
# that is not pagelab) or dump_quiet seconds after, dump_wait at most.
# Only for a machine that printed its banner and did not panic: the others
# have no kernel left to ask.
proc pl_ask_task_dump {} {
	global S
	if {!$S(watch) || $S(eof) || $S(banners) == 0 || $S(panic) ne ""} {
		return
	}
	set S(dumpat) [string length $S(console)]
	exp_send -i $S(id) -- "\001bt"
	set now [clock milliseconds]
	set end [expr {$now + int([pl_scale $pl::dump_wait] * 1000)}]
	set quiet [expr {int([pl_scale $pl::dump_first] * 1000)}]
	while {!$S(dumped)} {
		set now [clock milliseconds]
		if {[pl_read [expr {min($end, $now + $quiet)}]] ne "data"} {
			break
		}
		set quiet [expr {int([pl_scale $pl::dump_quiet] * 1000)}]
	}
}

# A host command is asked to stop first (pl_stop_command); then the whole
# process group goes.
proc pl_kill {} {
	global S
	if {$S(watch)} {
		catch {exec kill -KILL $S(pid)}
	} else {
		pl_stop_command
		catch {exec kill -KILL -- -$S(pid)}
	}
	set S(killed) 1
}

# SIGTERM to the command's process group (spawn made it a group leader),
# then its output read until it ends, term_grace seconds at most: given up
# on, scripts/pagelab-run asks its kernel for a task dump and prints the
# console lines it held back, and the log keeps them.
proc pl_stop_command {} {
	global S
	if {$S(eof)} {
		return
	}
	catch {exec kill -TERM -- -$S(pid)}
	set end [expr {[clock milliseconds] +
	    int([pl_scale $pl::term_grace] * 1000)}]
	while {!$S(eof) && [pl_read $end] ne "timeout"} {
	}
}

# True when the guest did not power off by itself (killed after a timeout,
# a panic or a reboot; reset): its disks were never cleanly unmounted, so
# e2fsck's complaints about them are the expected debris, not the cause.
proc pl_unclean {how code} {
	global S
	if {$how eq "halted"} {
		return 0	;# init unmounted the disks before it asked
	}
	if {$how ne "exited" || $code eq ""} {
		return 1
	}
	set ex [lindex [pl_decode_exit $code] 0]
	return [expr {$ex ne "poweroff" &&
	    !($ex eq "reset" && ($S(restart) || $S(powerdown)))}]
}

# Collect the process's exit code ("" when we killed it).
proc pl_reap {} {
	global S
	catch {close -i $S(id)}
	set w [wait -i $S(id)]
	if {$S(killed) || [lindex $w 2] != 0} {
		return ""
	}
	return [lindex $w 3]
}
