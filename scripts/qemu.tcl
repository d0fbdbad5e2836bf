# scripts/qemu.tcl -- how pagelab runs QEMU.
#
# Shared by scripts/qemu (interactive runs: make run, run-iso, gdb) and by
# scripts/lib.tcl (the test harness), so that a test boots the very machine
# a student boots by hand (but for the firmware: pl_boot_firmware).  Plain
# Tcl: no expect needed here.
#
# Roadmap:
#   pl_root            the repository root (every path below is relative to it)
#   pl_scale           PAGELAB_TIMEOUT_SCALE, default 1
#   pl_accel           tcg or kvm: PAGELAB_ACCEL, else kvm only on a real
#                      kvm_intel/kvm_amd host (a nested PVM /dev/kvm hangs)
#   pl_qemu_machine    the flags every boot uses (memory, console, exit
#                      device), and its CPUs: a boot's own count, else
#                      PAGELAB_SMP, else 1; with several under TCG, one
#                      host thread per CPU (-accel tcg,thread=multi)
#   pl_kernel          build/kernel.elf, or PAGELAB_KERNEL (a lab's student
#                      kernel: scripts/check-lab)
#   pl_kernel_later_solved  the kernel of `kernel later-solved` boots:
#                      PAGELAB_KERNEL_LATER_SOLVED, else this tree's own
#                      when it is the staff's (scripts/later-solved)
#   pl_boot_firmware   qboot or seabios for a harness boot (-bios)
#   pl_drive           the -drive argument of a disk image (aio=io_uring
#                      where this host's QEMU can use it)
#   pl_qemu_boot_args  -kernel/-append/-initrd, or -cdrom for a GRUB ISO;
#                      PAGELAB_CMDLINE's words go before every boot's own
#                      command line (e.g. preempt_stress=4 for a whole run)
#   pl_mkiso           a GRUB ISO with a given command line, rebuilt when stale
#   pl_decode_exit     QEMU's exit code -> what the guest did
#
# Power-off protocol: the kernel writes status S to the isa-debug-exit port
# 0xf4 and QEMU exits with (S << 1) | 1.  With -no-reboot a reset or a triple
# fault makes QEMU exit 0.

namespace eval pl {
	variable root [file dirname [file dirname [file normalize [info script]]]]
}

proc pl_root {} { return $::pl::root }

# The kernel a boot uses unless its test list names one.
proc pl_kernel {} {
	if {[info exists ::env(PAGELAB_KERNEL)] && $::env(PAGELAB_KERNEL) ne ""} {
		return $::env(PAGELAB_KERNEL)
	}
	return build/kernel.elf
}

# The kernel of a boot marked `kernel later-solved` (scripts/testlist.tcl):
# the graded tree's kernel with every lab after its lab solved by the
# staff's code, which scripts/later-solved builds for the staff's grading
# paths (check-lab, grade-submission) and passes in
# PAGELAB_KERNEL_LATER_SOLVED; check-mutants passes its mutant's kernel,
# whose tree is the full one. Without it, the staff's tree (no .lab file)
# boots its own kernel, which has every lab solved. Returns {FILE WHY}:
# WHY, when not "", is why there is no such kernel here (PAGELAB_KERNEL
# names another tree's kernel, or this is a student's tree), and the boot
# fails with it (scripts/lib.tcl, pl_boot_argv) rather than boot a kernel
# whose later labs are stubs.
proc pl_kernel_later_solved {} {
	if {[info exists ::env(PAGELAB_KERNEL_LATER_SOLVED)] &&
	    $::env(PAGELAB_KERNEL_LATER_SOLVED) ne ""} {
		return [list $::env(PAGELAB_KERNEL_LATER_SOLVED) ""]
	}
	if {[info exists ::env(PAGELAB_KERNEL)] && $::env(PAGELAB_KERNEL) ne ""} {
		return [list $::env(PAGELAB_KERNEL) "this boot wants the kernel\
		    with the later labs solved: PAGELAB_KERNEL is set and\
		    PAGELAB_KERNEL_LATER_SOLVED is not (scripts/later-solved\
		    builds it)"]
	}
	if {[file exists [file join [pl_root] .lab]]} {
		return [list build/kernel.elf "this boot wants the kernel with\
		    the later labs solved, which a student's tree cannot build\
		    (the course's grader runs it)"]
	}
	return [list build/kernel.elf ""]
}

# Seconds scaled by PAGELAB_TIMEOUT_SCALE (slow graders set it to 2 or 3).
proc pl_scale {seconds} {
	set s 1
	if {[info exists ::env(PAGELAB_TIMEOUT_SCALE)] &&
	    [string is double -strict $::env(PAGELAB_TIMEOUT_SCALE)] &&
	    $::env(PAGELAB_TIMEOUT_SCALE) > 0} {
		set s $::env(PAGELAB_TIMEOUT_SCALE)
	}
	return [expr {$seconds * $s}]
}

proc pl_accel {} {
	if {[info exists ::env(PAGELAB_ACCEL)] && $::env(PAGELAB_ACCEL) ne ""} {
		set a $::env(PAGELAB_ACCEL)
		if {$a ni {tcg kvm}} {
			error "PAGELAB_ACCEL must be tcg or kvm, not '$a'"
		}
		return $a
	}
	if {[file exists /sys/module/kvm_intel] ||
	    [file exists /sys/module/kvm_amd]} {
		return kvm
	}
	return tcg
}

proc pl_qemu_binary {} {
	if {[info exists ::env(PAGELAB_QEMU)] && $::env(PAGELAB_QEMU) ne ""} {
		return $::env(PAGELAB_QEMU)
	}
	return qemu-system-x86_64
}

# Flags common to every boot.  -serial mon:stdio puts the console on our
# stdin/stdout with Ctrl-A as QEMU's escape key (Ctrl-A X quits, Ctrl-A B
# sends a BREAK: with t after it, magic SysRq t, which the harness sends
# to a guest that timed out); Ctrl-C goes to the guest.  -nic none skips the option ROM of an unused NIC.
# The CPU count a boot asks for ("" for the default), checked: 1 to 8.
proc pl_smp {{smp ""}} {
	if {$smp eq "" && [info exists ::env(PAGELAB_SMP)]} {
		set smp $::env(PAGELAB_SMP)
	}
	if {$smp eq ""} {
		return 1
	}
	if {![string is integer -strict $smp] || $smp < 1 || $smp > 8} {
		error "the number of CPUs must be 1 to 8, not '$smp'"
	}
	return $smp
}

proc pl_qemu_machine {{smp ""}} {
	set smp [pl_smp $smp]
	set accel [pl_accel]
	if {$smp > 1} {
		if {$accel eq "tcg"} {
			set accel tcg,thread=multi
		}
		set accel "$accel -smp $smp"
	}
	set args [list -accel {*}$accel -cpu max -m 64M -display none \
	    -serial mon:stdio -no-reboot -nic none \
	    -device isa-debug-exit,iobase=0xf4,iosize=0x04]
	if {[info exists ::env(PAGELAB_QEMU_FLAGS)]} {
		lappend args {*}$::env(PAGELAB_QEMU_FLAGS)
	}
	return $args
}

# The firmware of a harness boot. A GRUB ISO needs SeaBIOS's disk services
# and a harness fixture is no QEMU: seabios (no -bios flag). Otherwise the
# boot's own `firmware`, else PAGELAB_FIRMWARE, else qboot for pagelab and
# seabios for Linux (which boots as Debian's would). qboot (Debian's QEMU
# ships it) does no more than start a kernel: a boot takes some 35 ms less
# CPU time than with SeaBIOS, about 18 CPU-seconds (4%) over make test. It
# leaves the BARs to the kernel (drivers/pci/setup-res.c) and the local
# APIC as a reset does (arch/x86/kernel/apic.c), so pagelab does what Linux
# does on such firmware. make run keeps SeaBIOS, the PC's usual firmware,
# and tests/block.list boots it on purpose.
proc pl_boot_firmware {boot} {
	if {[dict get $boot mode] eq "iso" || [dict get $boot emulator] ne ""} {
		return seabios
	}
	set fw [dict get $boot firmware]
	if {$fw eq "" && [info exists ::env(PAGELAB_FIRMWARE)]} {
		set fw $::env(PAGELAB_FIRMWARE)
		if {$fw ni {"" qboot seabios}} {
			error "PAGELAB_FIRMWARE must be qboot or seabios, not '$fw'"
		}
	}
	if {$fw ne ""} {
		return $fw
	}
	return [pl_default_firmware $boot]
}

# What a boot starts when nothing names a firmware.
proc pl_default_firmware {boot} {
	return [expr {[dict get $boot linux] ? "seabios" : "qboot"}]
}

proc pl_firmware_args {fw} {
	return [expr {$fw eq "qboot" ? {-bios qboot.rom} : {}}]
}

# How QEMU does a disk's I/O: PAGELAB_QEMU_AIO (threads or io_uring), else
# io_uring when this QEMU and host allow it (asked once per process: QEMU
# opens a scratch image with it and quits), else QEMU's default, threads.
# With threads every request wakes a worker thread and its completion the
# main loop; on these nested hosts a context switch is dear, and a disk-heavy
# boot (fsx, 300,000 operations) took a quarter more CPU time.
proc pl_aio {} {
	if {[info exists ::env(PAGELAB_QEMU_AIO)] && $::env(PAGELAB_QEMU_AIO) ne ""} {
		return $::env(PAGELAB_QEMU_AIO)
	}
	if {![info exists ::pl::aio]} {
		set ::pl::aio threads
		set img [file join [pl_root] build qemu-aio-probe.img]
		catch {
			if {![file exists $img]} {
				file mkdir [file dirname $img]
				set f [open $img w]
				puts -nonewline $f [string repeat "\0" 512]
				close $f
			}
			exec [pl_qemu_binary] -M none -display none -nodefaults \
			    -monitor stdio \
			    -drive if=none,file=$img,format=raw,aio=io_uring \
			    << "quit\n" 2>@1
			set ::pl::aio io_uring
		}
	}
	return $::pl::aio
}

proc pl_drive {img} {
	return file=$img,if=virtio,format=raw,aio=[pl_aio]
}

# The arguments that choose what to boot.
#   mode    kernel (QEMU's Multiboot loader) or iso (GRUB, Multiboot 2)
#   kernel  path of the kernel ELF
#   cmdline the kernel command line
#   initrd  path of the initramfs, or "" for none
#   iso     (iso mode) path where the ISO is built
proc pl_qemu_boot_args {mode kernel cmdline initrd {iso ""}} {
	if {[info exists ::env(PAGELAB_CMDLINE)] && $::env(PAGELAB_CMDLINE) ne ""} {
		set cmdline [string trim "$::env(PAGELAB_CMDLINE) $cmdline"]
	}
	if {$mode eq "iso"} {
		pl_mkiso $kernel $iso $cmdline $initrd
		return [list -boot d -cdrom $iso]
	}
	set args [list -kernel $kernel -append $cmdline]
	if {$initrd ne ""} {
		lappend args -initrd $initrd
	}
	return $args
}

# The default initramfs: build/initramfs.cpio once the build makes one.
proc pl_default_initrd {} {
	set f build/initramfs.cpio
	if {[file exists [file join [pl_root] $f]]} {
		return $f
	}
	return ""
}

# Build (or reuse) a GRUB ISO that boots KERNEL with CMDLINE.  The ISO is
# rebuilt when the kernel or initramfs is newer or the command line changed;
# the command line it was made with is kept in ISO.cmdline.
proc pl_mkiso {kernel iso cmdline initrd} {
	set stamp $iso.cmdline
	set want [list $cmdline $initrd]
	if {![pl_iso_stale $iso $stamp $want [list $kernel $initrd]]} {
		return
	}
	file mkdir [file dirname $iso]
	set initarg [expr {$initrd eq "" ? "none" : $initrd}]
	set mkiso [file join [pl_root] scripts mkiso]
	if {[catch {exec $mkiso --initrd $initarg $kernel $iso {*}$cmdline \
	    2>@1} out]} {
		error "scripts/mkiso failed:\n$out"
	}
	set f [open $stamp w]
	puts $f $want
	close $f
}

proc pl_iso_stale {iso stamp want inputs} {
	if {![file exists $iso] || ![file exists $stamp]} {
		return 1
	}
	set f [open $stamp]
	set had [string trimright [read $f] \n]
	close $f
	if {$had ne $want} {
		return 1
	}
	foreach in $inputs {
		if {$in ne "" && [file mtime $in] > [file mtime $iso]} {
			return 1
		}
	}
	return 0
}

# QEMU's exit code -> {poweroff STATUS}, {reset} or {error CODE}.
# Exit 1 is also what QEMU returns when it cannot start at all; callers
# tell the two apart by whether the banner was printed.
proc pl_decode_exit {code} {
	if {$code == 0} {
		return reset
	}
	if {$code % 2 == 1} {
		return [list poweroff [expr {($code - 1) / 2}]]
	}
	return [list error $code]
}
