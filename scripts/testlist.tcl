# scripts/testlist.tcl -- read the tests lists (tests/*.list, lab/*/tests.list).
#
# A list file is line based; every line is a Tcl list, so {braces} quote a
# word (nothing is substituted inside them: regexes go in braces as they
# are), a line ending in \ continues on the next, and # starts a comment
# line.  Paths are relative to the repository root.
#
#   boot NAME [KEY VALUE]...     one QEMU run; the lines below belong to it
#       cmdline STRING           kernel command line (default empty)
#       image kernel|iso         QEMU's Multiboot loader (default) or GRUB
#       kernel FILE              default build/kernel.elf (PAGELAB_KERNEL)
#       kernel later-solved      the graded tree's kernel with every lab
#                                after its lab solved by the staff's code
#                                (scripts/later-solved builds it, for
#                                tests that a later lab's stub would fail
#                                first): PAGELAB_KERNEL_LATER_SOLVED, else
#                                the staff tree's own (scripts/qemu.tcl,
#                                pl_kernel_later_solved); only for hidden
#                                tests of a lab's list, since a student's
#                                tree cannot build it
#       initrd FILE|none         default build/initramfs.cpio if it exists
#       timeout SECONDS          for the whole run (default 20), scaled
#       giveup {REGEX SECS}      give up on the boot (as at its timeout)
#                                SECS seconds (scaled) after a line
#                                matches REGEX: a fixture that must be
#                                given up on once it is stuck, whatever
#                                the host's speed
#       panic yes|no             a kernel panic is the expected end (no)
#       exit N                   expected power-off status (default 0)
#       end poweroff|reset|halt  how the guest ends (default poweroff):
#                                reset (reboot(2) RESTART; QEMU runs with
#                                -no-reboot, so it exits 0) or halt (the
#                                kernel's "pagelab: system halted" line;
#                                QEMU is then stopped), each after the
#                                kernel's line saying so
#       disk FILE | disk {new SIZE MKE2FS-OPTION...}   ext2 disk, fresh
#                                copy, e2fsck -fn after (repeatable)
#       rawdisk FILE             a disk that is not checked (repeatable)
#       qemu {ARGS}              extra QEMU arguments
#       smp N                    N CPUs, 1 to 8 (default: PAGELAB_SMP, else
#                                1); under TCG each runs on a host thread
#       emulator FILE            run FILE instead of QEMU (harness fixtures)
#       command {ARGV}           run a host command instead of a machine;
#                                exit N is then its exit status
#       firmware qboot|seabios   the PC firmware QEMU starts (default:
#                                PAGELAB_FIRMWARE, else qboot for a
#                                pagelab kernel, seabios for Linux; an iso
#                                image always has seabios;
#                                scripts/qemu.tcl, pl_boot_firmware)
#       alone yes|no             no other boot may run beside it when
#                                run-tests runs boots in parallel (-j),
#                                e.g. one that loads the host on purpose
#     Programs instead of a shell (scripts/pagelab-run is this, from the
#     command line, with these options as its flags):
#       run {PROG...}            each PROG a FILE or NAME=FILE (a FILE
#                                without / is build/userland/tests/FILE):
#                                copied into the boot's initramfs as
#                                /run/NAME (default: the file's name) and
#                                run one after the other, each between
#                                `=== BEGIN NAME` and `=== END NAME rc=N`
#                                (scripts/programs.tcl); names ending in
#                                .phase2 run after a remount of /mnt
#       args WORDS               given to every program
#       mount DISK               a disk as for `disk`, attached as /dev/vdb
#                                (vda is a blank placeholder), mounted on
#                                /mnt, where the programs then run; e2fsck
#                                -fn's verdict is printed (`=== E2FSCK
#                                clean`) as well as judged
#       mount-opts OPTS          mount -o OPTS (say truncate=old)
#       fsck-leaks-ok yes|no     leaked blocks (and nothing else) on the
#                                mounted disk are no failure (no)
#       linux yes|no             boot Debian's Linux (linux-kernel dir) instead
#                                of pagelab, the same programs (no)
#     A boot writes only below its own scratch directory, which a command
#     finds in $SCRATCH (build/test-runs/RUN/BOOT; its disk copies and
#     initramfs are there too), so that any two boots may run at once.
#   send TEXT                    type TEXT and Enter on the console
#   sendraw TEXT                 send TEXT as is, after \-escapes (\x03)
#   wait REGEX [SECONDS]         wait for REGEX after the previous wait
#   test NAME POINTS [VISIBILITY] [CHECK]...  a test judged on its boot's
#                                console; VISIBILITY (for a lab's list):
#                                hidden, after_due_date or after_published,
#                                Gradescope's words for a test that a
#                                student's tree does not hold (scripts/mklab
#                                takes it out, scripts/strip-hidden) and
#                                only the course's grader runs; default
#                                visible
#       match REGEX              REGEX appears
#       nomatch REGEX            REGEX does not appear
#       order REGEX REGEX...     they appear in this order (every word
#                                up to the next check keyword)
#       tap PROG [{REGEX WEIGHT...}]
#                                PROG's TAP verdicts, graded line by line:
#                                see "Points" below
#   grade-also FILE REGEX        (anywhere in a lab's list) when the lab is
#                                graded (run-tests --lab NAME, make grade
#                                LAB=NAME), also run the tests of FILE whose
#                                names match REGEX, with their points; other
#                                runs of the list ignore the line
#   held-back TESTS POINTS       (written by scripts/strip-hidden in a
#                                student's tree) how many hidden tests, and
#                                their points, were taken out of the list:
#                                make grade says so
#
# Points.  match, nomatch and order are all or nothing, and so is the boot
# (scripts/verdict.tcl): if one fails, the test scores 0.  A test with
# `tap PROG` checks earns its POINTS in proportion to PROG's verdicts: the
# `ok`/`not ok` lines (userland/include/tap.h) between `=== BEGIN PROG` and
# `=== END PROG rc=N` (a `run` boot prints both).  Each line weighs
# 1, or the WEIGHT (> 0) of the first REGEX that matches its description
# (the text after `ok N - `, so a weight holds whether the line passed or
# not).  A planned line never printed (plan `1..N` above the count) is a
# failed line of weight 1, and so is a block that did not end cleanly: no
# END line, no plan line or one that does not match the count, or rc != 0
# with every line ok.  So the test has full points, and passes, only when
# every line is ok, the plan matches and rc=0; it has none when the block
# is missing.  Several tap checks in one test pool their lines.
#
# Roadmap:
#   pl_read_lists      all boots of many files (names must be unique)
#   pl_parse_list      one file -> list of boot dicts, tests inside them
#                      (pl_boot_done: a later-solved boot's are hidden)
#   pl_grade_also      one lab list's grade-also lines
#   pl_held_back       its held-back line; pl_hidden_words
#   pl_logical_lines   physical lines -> {lineno words} with continuations
#   pl_parse_boot, pl_parse_test, pl_check_re   one line each
#   pl_boot_defaults   a boot with every option at its default
#   pl_parse_programs  a run option's programs
#   pl_check_tap_args  a tap check's program name and weights

proc pl_read_lists {files} {
	set boots {}
	set seen [dict create]
	foreach file $files {
		foreach boot [pl_parse_list $file] {
			pl_unique seen boot [dict get $boot name] $boot
			foreach t [dict get $boot tests] {
				pl_unique seen test [dict get $t name] $t
			}
			lappend boots $boot
		}
	}
	return $boots
}

proc pl_unique {seenvar kind name where} {
	upvar $seenvar seen
	if {[dict exists $seen $kind,$name]} {
		error "[dict get $where file]:[dict get $where line]:\
		    $kind name '$name' is already used at\
		    [dict get $seen $kind,$name]"
	}
	dict set seen $kind,$name \
	    [dict get $where file]:[dict get $where line]
}

proc pl_parse_list {file} {
	set f [open $file]
	set text [read $f]
	close $f
	set boots {}
	set boot ""
	foreach {lineno words} [pl_logical_lines $file $text] {
		set where "$file:$lineno"
		set kw [lindex $words 0]
		if {$kw eq "boot"} {
			if {$boot ne ""} {
				lappend boots [pl_boot_done $boot]
			}
			set boot [pl_parse_boot $where $file $lineno $words]
			continue
		}
		if {$kw eq "grade-also"} {
			pl_parse_grade_also $where $words
			continue
		}
		if {$kw eq "held-back"} {
			pl_parse_held_back $where $words
			continue
		}
		if {$boot eq ""} {
			error "$where: '$kw' before any boot line"
		}
		switch -- $kw {
		send - sendraw - wait {
			dict lappend boot steps [pl_parse_step $where $words]
		}
		test {
			dict lappend boot tests [pl_parse_test $where $file \
			    $lineno [dict get $boot name] $words]
		}
		default {
			error "$where: unknown keyword '$kw'\
			    (boot, send, sendraw, wait, test, grade-also,\
			    held-back)"
		}
		}
	}
	if {$boot ne ""} {
		lappend boots [pl_boot_done $boot]
	}
	return $boots
}

# A boot whose tests are all read: one that boots the later-solved kernel
# holds hidden tests only, since no student's tree can build that kernel
# (scripts/strip-hidden takes such a boot out of the student's list).
proc pl_boot_done {boot} {
	if {![dict get $boot later-solved]} {
		return $boot
	}
	foreach t [dict get $boot tests] {
		if {[dict get $t visibility] eq "visible"} {
			error "[dict get $t file]:[dict get $t line]: test\
			    [dict get $t name] of a boot with kernel\
			    later-solved must be hidden (a student's tree\
			    cannot build that kernel)"
		}
	}
	return $boot
}

# The grade-also lines of FILE (already checked by pl_parse_list): a flat
# list FILE REGEX FILE REGEX ...
proc pl_grade_also {file} {
	set f [open $file]
	set text [read $f]
	close $f
	set out {}
	foreach {lineno words} [pl_logical_lines $file $text] {
		if {[lindex $words 0] eq "grade-also"} {
			lappend out [lindex $words 1] [lindex $words 2]
		}
	}
	return $out
}

# FILE's held-back line as {TESTS POINTS}, or {0 0}.
proc pl_held_back {file} {
	set f [open $file]
	set text [read $f]
	close $f
	foreach {lineno words} [pl_logical_lines $file $text] {
		if {[lindex $words 0] eq "held-back"} {
			return [lrange $words 1 2]
		}
	}
	return {0 0}
}

proc pl_parse_held_back {where words} {
	if {[llength $words] != 3 ||
	    ![string is integer -strict [lindex $words 1]] ||
	    ![string is double -strict [lindex $words 2]]} {
		error "$where: usage: held-back TESTS POINTS"
	}
}

proc pl_parse_grade_also {where words} {
	if {[llength $words] != 3} {
		error "$where: usage: grade-also FILE REGEX"
	}
	if {![file isfile [lindex $words 1]]} {
		error "$where: grade-also: no list file [lindex $words 1]"
	}
	pl_check_re $where [lindex $words 2]
}

# Returns a flat list: lineno words lineno words ...
proc pl_logical_lines {file text} {
	set out {}
	set buf ""
	set start 0
	set n 0
	foreach line [split $text \n] {
		incr n
		if {$buf eq ""} {
			set start $n
			if {[regexp {^\s*(#|$)} $line]} {
				continue
			}
		}
		if {[regexp {^(.*)\\$} $line -> head]} {
			append buf $head " "
			continue
		}
		append buf $line
		if {![info complete $buf]} {
			append buf \n
			continue
		}
		if {[catch {llength $buf}]} {
			error "$file:$start: not a valid Tcl list: $buf"
		}
		lappend out $start $buf
		set buf ""
	}
	if {$buf ne ""} {
		error "$file:$start: unterminated line (missing close brace?)"
	}
	return $out
}

proc pl_parse_boot {where file lineno words} {
	set name [lindex $words 1]
	pl_check_name $where $name
	set boot [pl_boot_defaults $name $file $lineno]
	set opts [lrange $words 2 end]
	if {[llength $opts] % 2} {
		error "$where: boot options come in KEY VALUE pairs"
	}
	foreach {k v} $opts {
		pl_boot_option $where boot $k $v
	}
	pl_boot_finish $where boot
	return $boot
}

# A boot dict with every option at its default (scripts/pagelab-run starts
# from one too).
proc pl_boot_defaults {name file lineno} {
	return [dict create name $name file $file line $lineno \
	    image kernel kernel [pl_kernel] kernel-why "" later-solved 0 \
	    cmdline "" initrd default \
	    timeout 20 panic 0 exit 0 end poweroff disks {} qemu {} smp "" \
	    emulator "" \
	    command "" alone 0 steps {} tests {} giveup {} \
	    run {} args "" mount {} mount-opts "" fsck-leaks-ok 0 linux 0 \
	    firmware ""]
}

# The checks that span options: the program options want `run`.
proc pl_boot_finish {where bootvar} {
	upvar $bootvar boot
	dict set boot mode [dict get $boot image]
	if {[llength [dict get $boot run]]} {
		return
	}
	foreach k {args mount mount-opts} {
		if {[dict get $boot $k] ne ""} {
			error "$where: $k is for a boot that runs programs (run)"
		}
	}
	if {[dict get $boot linux]} {
		error "$where: linux is for a boot that runs programs (run)"
	}
}

proc pl_boot_option {where bootvar k v} {
	upvar $bootvar boot
	switch -- $k {
	kernel {
		if {$v eq "later-solved"} {
			lassign [pl_kernel_later_solved] file why
			dict set boot kernel $file
			dict set boot kernel-why $why
			dict set boot later-solved 1
		} else {
			dict set boot kernel $v
		}
	}
	cmdline - qemu - emulator - command - args - mount-opts {
		dict set boot $k $v
	}
	run {
		dict set boot run [pl_parse_programs $where $v]
	}
	mount {
		dict set boot mount [list disk $v]
	}
	smp {
		if {![string is integer -strict $v] || $v < 1 || $v > 8} {
			error "$where: smp is a number of CPUs, 1 to 8, not '$v'"
		}
		dict set boot smp $v
	}
	image {
		if {$v ni {kernel iso}} {
			error "$where: image is kernel or iso, not '$v'"
		}
		dict set boot image $v
	}
	initrd {
		dict set boot initrd [expr {$v eq "none" ? "" : $v}]
	}
	timeout - exit {
		if {![string is double -strict $v] || $v < 0} {
			error "$where: $k wants a number, not '$v'"
		}
		dict set boot $k $v
	}
	giveup {
		if {[llength $v] != 2 || [catch {regexp -- [lindex $v 0] ""}] ||
		    ![string is double -strict [lindex $v 1]]} {
			error "$where: giveup wants {REGEX SECONDS}, not '$v'"
		}
		dict set boot giveup $v
	}
	end {
		if {$v ni {poweroff reset halt}} {
			error "$where: end is poweroff, reset or halt, not '$v'"
		}
		dict set boot end $v
	}
	panic - alone - fsck-leaks-ok - linux {
		if {$v ni {yes no}} {
			error "$where: $k is yes or no, not '$v'"
		}
		dict set boot $k [expr {$v eq "yes"}]
	}
	disk - rawdisk {
		dict lappend boot disks $k $v
	}
	firmware {
		if {$v ni {qboot seabios}} {
			error "$where: firmware is qboot or seabios, not '$v'"
		}
		dict set boot firmware $v
	}
	default {
		error "$where: unknown boot option '$k'"
	}
	}
}

# A run option's programs -> a list of {NAME FILE}.
proc pl_parse_programs {where progs} {
	set out {}
	foreach p $progs {
		if {![regexp {^(?:([A-Za-z0-9_.+-]+)=)?(\S+)$} $p -> name path]} {
			error "$where: run: '$p' is not FILE or NAME=FILE"
		}
		if {![string match */* $path]} {
			set path build/userland/tests/$path
		}
		if {$name eq ""} {
			set name [file tail $path]
		}
		lappend out [list $name $path]
	}
	if {![llength $out]} {
		error "$where: run wants at least one program"
	}
	return $out
}

proc pl_parse_step {where words} {
	lassign $words op arg secs
	set n [llength $words]
	if {$op eq "wait"} {
		if {$n < 2 || $n > 3 ||
		    ($secs ne "" && ![string is double -strict $secs])} {
			error "$where: usage: wait REGEX \[SECONDS\]"
		}
		pl_check_re $where $arg
		return [list wait $arg $secs]
	}
	if {$n != 2} {
		error "$where: usage: $op TEXT (brace TEXT if it has spaces)"
	}
	return [list $op $arg]
}

proc pl_parse_test {where file lineno boot words} {
	lassign $words - name points
	pl_check_name $where $name
	if {![string is double -strict $points] || $points < 0} {
		error "$where: test $name: POINTS must be a number, not '$points'"
	}
	set rest [lrange $words 3 end]
	set vis visible
	if {[lindex $rest 0] in [pl_hidden_words]} {
		set vis [lindex $rest 0]
		set rest [lrange $rest 1 end]
	}
	set checks [pl_group_checks $where $name $rest]
	foreach {op arg} $checks {
		pl_check_check $where $op $arg
	}
	return [dict create name $name points $points checks $checks \
	    file $file line $lineno boot $boot visibility $vis]
}

# Gradescope's visibilities other than visible: a student never sees
# such a test before the grade (hidden: never).
proc pl_hidden_words {} {
	return {hidden after_due_date after_published}
}

# WORDS -> op arg op arg ...: match and nomatch take one regex, order takes
# every word up to the next check keyword (as one list), tap takes PROG and
# a weights list if the next word is not a check keyword (as {PROG WEIGHTS}).
proc pl_group_checks {where name words} {
	set kws {match nomatch order tap}
	set out {}
	set n [llength $words]
	for {set i 0} {$i < $n} {incr i} {
		set op [lindex $words $i]
		if {$op eq "tap"} {
			if {$i + 1 >= $n} {
				error "$where: test $name: 'tap' wants a program name"
			}
			set arg [list [lindex $words [incr i]] {}]
			if {$i + 1 < $n && [lindex $words $i+1] ni $kws} {
				lset arg 1 [lindex $words [incr i]]
			}
			lappend out tap $arg
			continue
		}
		if {$op ne "order"} {
			if {$i + 1 >= $n} {
				error "$where: test $name: '$op' wants a regex"
			}
			lappend out $op [lindex $words [incr i]]
			continue
		}
		set res {}
		while {$i + 1 < $n && [lindex $words $i+1] ni $kws} {
			lappend res [lindex $words [incr i]]
		}
		lappend out order $res
	}
	return $out
}

proc pl_check_check {where op arg} {
	switch -- $op {
	match - nomatch {
		pl_check_re $where $arg
	}
	order {
		if {[llength $arg] < 2} {
			error "$where: order wants a list of two or more regexes"
		}
		foreach re $arg {
			pl_check_re $where $re
		}
	}
	tap {
		pl_check_tap_args $where {*}$arg
	}
	default {
		error "$where: unknown check '$op' (match, nomatch, order, tap)"
	}
	}
}

# PROG is a file name as pagelab-run prints it; WEIGHTS is REGEX WEIGHT...
proc pl_check_tap_args {where prog weights} {
	if {![regexp {^[A-Za-z0-9_.+-]+$} $prog]} {
		error "$where: tap: '$prog' is not a program name"
	}
	if {[catch {llength $weights} n] || $n % 2} {
		error "$where: tap $prog: weights come in REGEX WEIGHT pairs"
	}
	foreach {re w} $weights {
		pl_check_re $where $re
		if {![string is double -strict $w] || $w <= 0} {
			error "$where: tap $prog: weight of /$re/ must be a\
			    number > 0, not '$w'"
		}
	}
}

proc pl_check_name {where name} {
	if {![regexp {^[A-Za-z0-9_.-]+$} $name]} {
		error "$where: name '$name' must be letters, digits, _ . -"
	}
}

proc pl_check_re {where re} {
	if {[catch {regexp -line -- $re ""} msg]} {
		error "$where: bad regex /$re/: $msg"
	}
}
