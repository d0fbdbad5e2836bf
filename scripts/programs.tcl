# scripts/programs.tcl -- a boot that runs programs instead of a shell
# (`run` in a tests list; scripts/pagelab-run from the command line).
#
# The programs are copied into a fresh initramfs (scripts/mkinitramfs) as
# /run/NAME (a dynamically linked one with its loader and libraries,
# scripts/elf-libs), beside a script /etc/pagelab-run that init runs with
# /bin/sh before it powers off (userland/bin/init.c).  For each program in turn the
# script prints "=== BEGIN NAME", runs it with the boot's args, and prints
# "=== END NAME rc=N".  With a disk (`mount`: /dev/vdb) it mounts the disk
# on /mnt, copies the programs there and runs them there; programs named
# *.phase2 run after an umount and mount, to see what survived ("=== MOUNT
# ok", "=== REMOUNT ok", "=== UMOUNT ok" say how each went).  Around the
# programs a leak check runs (/bin/pagecheck, mm/pagecheck.c): with the
# caches dropped, pages still held after the programs ended (and the disk
# was unmounted) that were not held before are a leak: "=== PAGES ok
# (...)", or "=== PAGES LEAK: COUNTER: ..." naming it, which fails the boot.
#
# Two channels come back.  The script and the programs write to
# /dev/ttyS1, the guest's second serial port (raw, no \r added:
# kernel/drivers/serial_raw.c), which QEMU hands us through a FIFO in the
# boot's scratch directory; the kernel's lines come on the console as in
# any boot.  The console the tests read (and pagelab-run prints) has both:
# the programs' bytes exactly as written, a line at a time, and the
# kernel's lines.  The two ports reach us independently, so the script
# marks each step's end on both: "--- pagelab-run: mark N" (swallowed);
# a program's step is marked after its BEGIN line too, "mark N program".
# Between marks N and N+1, one port's lines go out as they come, the
# other's once the first has passed mark N+1, and neither port's lines
# after it go out before the other has passed it too: the steps keep the
# guest's order, however late either port is read.  Which port first: in
# a program's run COM2, so that its block holds only what it wrote
# (scripts/program-output cuts it out, to compare with the same program
# on Linux) and the kernel's lines that came while it ran follow its END
# line; in any other step the console, whose lines (a mount's, say) came
# before the step's echo.  An END line that says "(no newline at end)"
# stands on a line of its own because the output did not end in one.
#
# `linux yes` boots Debian 12's Linux (6.1, linux-image-amd64, which
# scripts/linux-kernel fetches once per machine) with the same
# initramfs, script and output, so that a program's output and verdict can
# be set beside Linux's in the same machine.  What differs, and why:
#   - modules: Debian builds virtio_pci, virtio_blk and ext4 (which mounts
#     ext2) as modules; with a disk they go into the initramfs as
#     /lib/modules/NAME.ko and the script loads them first (/bin/modload,
#     dependencies first);
#   - /dev: init mounts devtmpfs, and the script makes /dev/ttyS1 raw
#     first (/bin/rawtty: Linux's tty would add \r);
#   - the command line: console=ttyS0 rdinit=/bin/init panic=-1 quiet,
#     then the boot's (loglevel=7 brings the boot log back); 256 MiB;
#   - mount options only pagelab knows (truncate=) are dropped, and
#     "=== MOUNT OPTIONS dropped ..." says so;
#   - no leak check ("=== PAGES not checked ..."): it reads pagelab's
#     /proc/pagecheck;
#   - the end: Linux powers off through ACPI, so QEMU exits 0 after
#     "reboot: Power down" (pagelab exits through isa-debug-exit), and its
#     quiet console has no banner (scripts/verdict.tcl, pl_judge_linux);
#   - the timeout gets 30 s more, for the boot.
#
# Roadmap:
#   pl_run_reset         the state of S kept here (S(run) ...)
#   pl_run_prepare       the script, the initramfs, the FIFO -> the boot
#   pl_run_script        the script's lines: pl_run_script_steps, its steps;
#                        pl_run_lines, a program's
#   pl_run_open          the FIFO's end, read as bytes arrive (pl_run_read)
#   pl_run_console       console lines, to the merge
#   pl_run_com2          COM2's bytes, a line at a time, framing noted
#   pl_run_merge         both ports' lines in the guest's order of marks
#   pl_run_drain         at the end: what COM2 still had, then all lines
#   pl_run_replay        the boot as a scripts/pagelab-run command line
#   pl_linux_boot, pl_linux_modules, pl_linux_mount_opts   for Linux

namespace eval pl {
	# Where the script sends the programs' output and its framing lines.
	variable to_com2 "> /dev/ttyS1 2>&1"
	# The modules a disk needs on Debian's kernel, dependencies first;
	# crc32c_generic: ext4's soft dependency (modprobe loads it first;
	# an ext2 file system without checksums does not use it).
	variable linux_modules {virtio_pci virtio_blk crc32c_generic ext4}
}

# S(run)     1 for a boot that runs programs
# S(com2)    our end of the FIFO, a Tcl channel ("" until open)
# S(conbuf)  console text after the last whole line
# S(out)     COM2 bytes after the last whole line
# S(block)   COM2 is inside a program's BEGIN/END
# S(mark,PORT)  the last mark PORT (console or com2) passed
# S(at)      the interval (after mark S(at)) whose lines go out now
# S(q,PORT,N)  lines of PORT after mark N, waiting to go out
# S(program,N) 1 when mark N starts a program's run
# S(leak)    what "=== PAGES LEAK:" said, or ""
proc pl_run_reset {boot} {
	global S
	array unset S q,*
	array unset S program,*
	array set S {com2 "" conbuf "" out "" block 0 mark,console 0
	    mark,com2 0 at 0 leak ""}
	set S(run) [expr {[llength [dict get $boot run]] > 0}]
}

# Write the script and the initramfs into DIR and make the FIFO; returns
# BOOT with its initrd, QEMU arguments and (for Linux) kernel set.
proc pl_run_prepare {boot dir} {
	if {![llength [dict get $boot run]]} {
		return $boot
	}
	set ko {}
	if {[dict get $boot linux]} {
		set boot [pl_linux_boot $boot]
		if {[llength [dict get $boot mount]]} {
			set ko [pl_linux_modules]
		}
	}
	set f [open $dir/pagelab-run w]
	puts $f [join [pl_run_script $boot $ko] \n]
	close $f
	set entries [list run/= etc/pagelab-run=$dir/pagelab-run]
	foreach p [dict get $boot run] {
		lassign $p name path
		if {![file isfile $path]} {
			error "no program $path (run make first)"
		}
		lappend entries run/$name=$path
	}
	if {[llength $ko]} {
		lappend entries lib/= lib/modules/=
		foreach k $ko {
			lappend entries lib/modules/[file tail $k]=$k
		}
	}
	# A dynamically linked program brings its loader and libraries
	# (scripts/elf-libs, asked only about the programs that have a loader:
	# it has nothing to say of a static one).
	set dynamic {}
	foreach p [dict get $boot run] {
		if {[pl_elf_interp [lindex $p 1]]} {
			lappend dynamic [lindex $p 1]
		}
	}
	set libs ""
	if {[llength $dynamic] &&
	    [catch {exec scripts/elf-libs {*}$dynamic} libs]} {
		error $libs
	}
	foreach e [split $libs \n] {
		if {$e ne "" && $e ni $entries} {
			lappend entries $e
		}
	}
	if {[catch {exec scripts/mkinitramfs $dir/initramfs.cpio \
	    {*}$entries 2>@1} msg]} {
		error "scripts/mkinitramfs: $msg"
	}
	exec mkfifo $dir/com2.in $dir/com2.out
	dict set boot initrd $dir/initramfs.cpio
	dict lappend boot qemu -serial pipe:$dir/com2
	return $boot
}

# 1 when PATH is an ELF file with a program interpreter (PT_INTERP: a
# dynamically linked program), or one this cannot read (64-bit
# little-endian only): scripts/elf-libs decides then; 0 for a static ELF
# or no ELF at all (a script), of which elf-libs says nothing.
proc pl_elf_interp {path} {
	if {[catch {
		set f [open $path rb]
		set head [read $f 64]
	}]} {
		catch {close $f}
		return 1
	}
	set r 1
	catch {
		if {[string range $head 0 3] ne "\x7fELF"} {
			set r 0
		} elseif {[binary scan $head @4cc@32wx14susu class data \
		    phoff phentsize phnum] == 5 && $class == 2 && $data == 1} {
			seek $f $phoff
			set ph [read $f [expr {$phentsize * $phnum}]]
			set r 0
			for {set i 0} {$i < $phnum} {incr i} {
				binary scan $ph @[expr {$i * $phentsize}]iu type
				if {$type == 3} {	;# PT_INTERP
					set r 1
					break
				}
			}
		}
	}
	close $f
	return $r
}

# The script init runs with /bin/sh (busybox's ash; && and || only, as
# any POSIX shell reads them).  KO: the modules to load first (Linux).
proc pl_run_script {boot ko} {
	set out $pl::to_com2
	set linux [dict get $boot linux]
	set lines [list "# written by scripts/programs.tcl" \
	    "n=0; mark() { n=\$((n + 1));\
	    echo \"--- pagelab-run: mark \$n\${1:+ \$1}\" $out;\
	    echo \"--- pagelab-run: mark \$n\${1:+ \$1}\"; }"]
	if {$linux} {
		if {[llength $ko]} {
			set paths {}
			foreach k $ko {
				lappend paths /lib/modules/[file tail $k]
			}
			lappend lines "modload $paths"
		}
		lappend lines "rawtty /dev/ttyS1"
		set save :
		set check "echo '=== PAGES not checked (Linux has no\
		    /proc/pagecheck)' $out"
	} else {
		set drop "sync; echo 3 > /proc/sys/vm/drop_caches"
		set save "$drop; pagecheck save /run/.pages"
		set check "$drop; pagecheck compare /run/.pages $out"
	}
	foreach step [pl_run_script_steps $boot $save $check] {
		lappend lines "$step; mark"
	}
	return $lines
}

# The script's steps, each marked after it by pl_run_script.
proc pl_run_script_steps {boot save check} {
	set out $pl::to_com2
	set phase1 {}
	set phase2 {}
	foreach p [dict get $boot run] {
		set name [lindex $p 0]
		if {[string match *.phase2 $name]} {
			lappend phase2 $name
		} else {
			lappend phase1 $name
		}
	}
	if {![llength [dict get $boot mount]]} {
		return [list "cd /run && $save" \
		    {*}[pl_run_lines $boot [concat $phase1 $phase2]] $check]
	}
	set steps {}
	set opts [dict get $boot mount-opts]
	if {[dict get $boot linux]} {
		lassign [pl_linux_mount_opts $opts] opts dropped
		if {$dropped ne ""} {
			lappend steps "echo '=== MOUNT OPTIONS dropped: $dropped\
			    (pagelab only; Linux does not know them)' $out"
		}
	}
	set mount "mount -t ext2 [expr {$opts eq "" ? "" :
	    "-o $opts "}]/dev/vdb /mnt"
	lappend steps "$mount && echo '=== MOUNT ok' $out ||\
	    echo '=== MOUNT failed' $out" \
	    "cd /mnt && cp /run/* /mnt/ || cd /run" $save \
	    {*}[pl_run_lines $boot $phase1]
	if {[llength $phase2]} {
		lappend steps "cd / && umount /mnt && $mount &&\
		    echo '=== REMOUNT ok' $out || echo '=== REMOUNT failed' $out" \
		    "cd /mnt || cd /run" {*}[pl_run_lines $boot $phase2]
	}
	lappend steps "cd / && umount /mnt && echo '=== UMOUNT ok' $out" $check
	return $steps
}

# One step per program: its BEGIN line, marked as a program's (see the top
# of this file), the program, its END line.
proc pl_run_lines {boot names} {
	set out $pl::to_com2
	set steps {}
	foreach n $names {
		lappend steps [join [list "echo '=== BEGIN $n' $out; mark program" \
		    "[string trimright "./$n [dict get $boot args]"] $out" \
		    "echo \"=== END $n rc=\$?\" $out"] \n]
	}
	return $steps
}

# Open our end of the FIFO (read-write, so that it never reads as ended)
# and read it byte for byte whenever it has something: Tcl calls
# pl_run_read from inside expect's waits, which serve every event.
# Not `spawn -open`: expect's own reader of such a channel left data in
# the FIFO, for a while in the run and for good at the end, whose read
# (expect -timeout 0) took only part of what was there: a program's last
# lines and its END line were lost in about one boot in 25 with the host
# loaded (tests/harness.list, harness_reads_the_second_port_to_the_end).
proc pl_run_open {dir} {
	global S
	if {!$S(run)} {
		return
	}
	set chan [open $dir/com2.out {RDWR NONBLOCK}]
	fconfigure $chan -translation binary -blocking 0
	fileevent $chan readable pl_run_read
	set S(com2) $chan
}

# Whatever the FIFO holds now; never waits.
proc pl_run_read {} {
	global S
	set bytes [read $S(com2)]
	if {$bytes ne ""} {
		pl_run_com2 $bytes
	}
}

# Console TEXT (folded) of a programs boot: each whole line scanned
# (pl_scan_line), then swallowed if it is the script's mark, or merged.
proc pl_run_console {text} {
	global S
	# COM2's bytes so far first: a mark there lets console lines out.
	if {$S(com2) ne ""} {
		pl_run_read
	}
	append S(conbuf) $text
	while {[set i [string first \n $S(conbuf)]] >= 0} {
		set line [string range $S(conbuf) 0 $i]
		set S(conbuf) [string range $S(conbuf) $i+1 end]
		pl_scan_line [string range $line 0 end-1]
		pl_run_console_line $line
	}
}

proc pl_run_console_line {line} {
	global S
	if {![pl_run_mark console $line]} {
		append S(q,console,$S(mark,console)) $line
	}
	pl_run_merge
}

# COM2 BYTES go on as they came, a whole line at a time (on the console
# folded and read as UTF-8, as a terminal would show them); each line is
# read for the framing: BEGIN/END open and close a block, a leak line is
# noted, a mark is swallowed. A program whose output does not end in a
# newline has the END line glued to it: it goes on a line of its own, and
# says so.
proc pl_run_com2 {bytes} {
	global S
	append S(out) $bytes
	while {[set i [string first \n $S(out)]] >= 0} {
		set line [string range $S(out) 0 $i]
		set S(out) [string range $S(out) $i+1 end]
		if {[pl_run_mark com2 $line]} {
			pl_run_merge
			continue
		}
		set at [string first "=== END " $line]
		if {$S(block) && $at > 0} {
			append S(q,com2,$S(mark,com2)) [string range $line 0 $at-1]
			set line "\n[string trimright [string range $line \
			    $at end] \n] (no newline at end)\n"
		}
		append S(q,com2,$S(mark,com2)) $line
		set line [string trimleft $line \n]
		if {[string match {=== BEGIN *} $line]} {
			set S(block) 1
		} elseif {[string match {=== END *} $line]} {
			set S(block) 0
		} elseif {[regexp {^=== PAGES LEAK: (.*)$} $line -> what]} {
			set S(leak) [string trim $what]
		}
		pl_run_merge
	}
}

# Let out what may go: of the interval after mark S(at), the first
# port's lines at once, the second's once the first has passed the next
# mark; the next interval when both have.
proc pl_run_merge {} {
	global S
	while 1 {
		foreach port [pl_run_ports $S(at)] {
			pl_run_out $port $S(at)
			if {$S(mark,$port) <= $S(at)} {
				return
			}
		}
		incr S(at)
	}
}

# 1 if LINE of PORT is the script's mark (noted); 0 if not.
proc pl_run_mark {port line} {
	global S
	if {![regexp {^--- pagelab-run: mark (\d+)( program)?\n$} $line -> n \
	    program]} {
		return 0
	}
	set S(mark,$port) [expr {max($S(mark,$port), $n)}]
	if {$program ne ""} {
		set S(program,$n) 1
	}
	return 1
}

# Which port goes first after mark N: in a program's run, COM2 (the
# program's output and END line, then the kernel's lines that came while
# it ran); elsewhere the console (the kernel's lines come before a step's
# echo that follows them).
proc pl_run_ports {n} {
	global S
	return [expr {[info exists S(program,$n)] ?
	    {com2 console} : {console com2}}]
}

proc pl_run_out {port n} {
	global S
	if {![info exists S(q,$port,$n)]} {
		return
	}
	if {$port eq "com2"} {
		pl_emit [pl_fold [encoding convertfrom utf-8 $S(q,$port,$n)]] \
		    $S(q,$port,$n)
	} else {
		pl_emit $S(q,$port,$n)
	}
	unset S(q,$port,$n)
}

# After QEMU ended: what COM2 still had, a console line cut short, then
# every line not yet out, interval by interval, each in its ports' order
# (after a hang, the task dump among them: the diagnosis).
proc pl_run_drain {} {
	global S
	if {$S(com2) eq ""} {
		return
	}
	# QEMU has ended: all it wrote is in the FIFO, and read never waits.
	pl_run_read
	close $S(com2)
	set S(com2) ""
	if {$S(out) ne ""} {
		append S(q,com2,$S(mark,com2)) $S(out)
		set S(out) ""
	}
	if {$S(conbuf) ne ""} {
		pl_run_console_line $S(conbuf)
		set S(conbuf) ""
	}
	set last [expr {max($S(mark,console), $S(mark,com2))}]
	for {set n $S(at)} {$n <= $last} {incr n} {
		foreach port [pl_run_ports $n] {
			pl_run_out $port $n
		}
	}
}

# The scripts/pagelab-run command that runs BOOT again by hand (the log
# shows it), or "" for a boot it cannot say: other disks or QEMU
# arguments, a disk that is not {new SIZE -b N}.
proc pl_run_replay {boot} {
	if {[llength [dict get $boot disks]] || [dict get $boot qemu] ne ""} {
		return ""
	}
	set words [list scripts/pagelab-run]
	if {[dict get $boot linux]} {
		lappend words --linux
	}
	foreach k {cmdline smp mount-opts args} {
		if {[dict get $boot $k] ne ""} {
			lappend words --$k [dict get $boot $k]
		}
	}
	# The firmware it really had (a boot's own, or PAGELAB_FIRMWARE's),
	# when a plain pagelab-run would start another.
	set fw [pl_boot_firmware $boot]
	if {$fw ne [pl_default_firmware $boot]} {
		lappend words --firmware $fw
	}
	if {[llength [dict get $boot mount]]} {
		lassign [dict get $boot mount] kind spec
		if {$kind ne "disk" ||
		    ![regexp {^new (\S+) -b (\d+)$} $spec -> size bs]} {
			return ""
		}
		lappend words --blocksize $bs --size $size
	}
	if {[dict get $boot fsck-leaks-ok]} {
		lappend words --fsck-leaks-ok
	}
	lappend words --timeout [dict get $boot timeout]
	foreach p [dict get $boot run] {
		lassign $p name path
		lappend words [expr {$name eq [file tail $path] ? $path :
		    "$name=$path"}]
	}
	return [pl_shell_quote $words]
}

# ---- linux yes ----------------------------------------------------------

# BOOT on Debian's kernel (fetched once, or an error saying why not):
# its kernel, command line, memory and time.
proc pl_linux_boot {boot} {
	if {[catch {exec scripts/linux-kernel fetch 2>@1}] ||
	    [catch {exec scripts/linux-kernel vmlinuz 2>@1} k]} {
		error "linux: Debian's Linux kernel is not in\
		    [exec scripts/linux-kernel dir] and could not be fetched\
		    (scripts/linux-kernel fetch)"
	}
	dict set boot kernel $k
	dict set boot cmdline [string trim "console=ttyS0 rdinit=/bin/init\
	    panic=-1 quiet [dict get $boot cmdline]"]
	dict lappend boot qemu -m 256M
	dict set boot timeout [expr {[dict get $boot timeout] + 30}]
	return $boot
}

# The modules' files, in load order.
proc pl_linux_modules {} {
	if {[catch {exec scripts/linux-kernel modules \
	    {*}$pl::linux_modules 2>@1} paths]} {
		error "linux: modules missing: $paths"
	}
	return $paths
}

# OPTS without the options only pagelab's ext2 knows (Linux would refuse
# the mount) -> {kept dropped}.
proc pl_linux_mount_opts {opts} {
	set keep {}
	set drop {}
	foreach opt [split $opts ,] {
		if {[regexp {^truncate=} $opt]} {
			lappend drop $opt
		} elseif {$opt ne ""} {
			lappend keep $opt
		}
	}
	return [list [join $keep ,] [join $drop ,]]
}
