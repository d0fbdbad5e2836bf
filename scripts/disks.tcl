# scripts/disks.tcl -- a test boot's scratch directory and its disks.
#
# Every boot has a scratch directory of its own, build/test-runs/RUN/BOOT
# (RUN: the run's pid, so that two runs in one tree, or a run started by a
# boot of another, never share one; the workers of a parallel run,
# run-tests -j, use their parent's).  Everything the boot writes goes
# there: its disk copies, a programs boot's initramfs (scripts/programs.tcl),
# a GRUB ISO, and whatever a host command writes in $SCRATCH.  So no two
# boots share a file they write, and run-tests may run any two at once.
# The directory is deleted when the boot passes and kept, for a look, when
# it fails (until the next run starts).
#
# Disks, attached in order as virtio-blk disks (/dev/vda, /dev/vdb, ...):
#   disk FILE              copy of FILE, checked with e2fsck -fn afterwards
#   disk {new SIZE OPT...} a new ext2 image: mke2fs -t ext2 OPT... IMG SIZE
#                          (e.g. {new 8M -b 1024 -I 128}, {new 4M -d DIR})
#   rawdisk FILE           copy of FILE, not checked (corrupt images)
# A boot whose programs run on a disk (`mount DISK`) has a blank
# placeholder first (vda) and that disk second (vdb), before any others;
# e2fsck's verdict on it is printed on the console too ("=== E2FSCK
# clean"), and with fsck-leaks-ok complaints that are all about leaked
# blocks pass.  scripts/pagelab-run --image FILE mounts FILE itself, in
# place: its verdict is printed, not judged.
#
# A disk is a dict: img (path), vd (vda...), check (judge e2fsck's
# verdict), show (print it on the console), leaks (leaked blocks pass).
#
# Roadmap:
#   pl_run_id          the pid of the run a boot belongs to
#   pl_scratch         the boot's directory; pl_scratch_make, _cleanup,
#                      _prune (at the start of a run: what earlier runs kept)
#   pl_disks_prepare   make the copies -> list of disk dicts
#   pl_disks_check     e2fsck -fn each checked or shown image after the
#                      run; any line beyond its routine chatter fails the
#                      boot; all its output is kept for the log.  After a
#                      guest that never powered off, complaints are
#                      labelled as what they most likely are: an image
#                      never unmounted
#   pl_fsck_why        that complaint in words
#   pl_fsck_gist, pl_fsck_only_leaks   reading e2fsck's output

# A worker of a parallel run sets ::pl::run_id to its parent's pid.
proc pl_run_id {} {
	if {[info exists ::pl::run_id]} {
		return $::pl::run_id
	}
	return [pid]
}

proc pl_scratch {boot} {
	return build/test-runs/[pl_run_id]/[dict get $boot name]
}

# A fresh, empty scratch directory for BOOT; returns its path.
proc pl_scratch_make {boot} {
	set dir [pl_scratch $boot]
	file delete -force $dir
	file mkdir $dir
	return $dir
}

# A passing boot's directory goes (and the run's, once empty, unless
# workers share it: their parent deletes it at the end).
proc pl_scratch_cleanup {boot} {
	file delete -force [pl_scratch $boot]
	if {![info exists ::pl::run_id]} {
		catch {file delete build/test-runs/[pid]}
	}
}

# Delete the directories of earlier runs that are over.
proc pl_scratch_prune {} {
	foreach dir [glob -nocomplain -type d build/test-runs/*] {
		set p [file tail $dir]
		if {[string is digit -strict $p] && $p != [pid] &&
		    [catch {exec kill -0 $p 2>/dev/null}]} {
			file delete -force $dir
		}
	}
}

proc pl_disks_prepare {boot dir} {
	set specs {}
	set mount [dict get $boot mount]
	if {[llength $mount]} {
		lappend specs blank {} {*}$mount
	}
	lappend specs {*}[dict get $boot disks]
	set out {}
	set letters abcdefghijklmnopqrstuvwxyz
	foreach {kind spec} $specs {
		set vd vd[string index $letters [llength $out]]
		set d [dict create img $dir/$vd.img vd $vd check 0 show 0 leaks 0]
		switch -- $kind {
		blank {
			exec dd if=/dev/zero of=$dir/$vd.img bs=1024 count=1024 \
			    status=none
		}
		image {
			if {![file isfile $spec]} {
				error "no such image: $spec"
			}
			dict set d img $spec
			dict set d show 1
		}
		default {
			pl_disk_make $spec $dir/$vd.img
			dict set d check [expr {$kind ne "rawdisk"}]
		}
		}
		if {$kind eq "disk" && [llength $mount] && [llength $out] == 1} {
			dict set d show 1
			dict set d leaks [dict get $boot fsck-leaks-ok]
		}
		lappend out $d
	}
	return $out
}

proc pl_disk_make {spec img} {
	if {[lindex $spec 0] eq "new" && [llength $spec] >= 2} {
		set size [lindex $spec 1]
		if {[catch {exec mke2fs -q -F -t ext2 {*}[lrange $spec 2 end] \
		    $img $size 2>@1} out]} {
			error "mke2fs for {$spec} failed: $out"
		}
		return
	}
	if {![file exists $spec]} {
		error "no disk image $spec (does the Makefile build it?)"
	}
	file copy -force $spec $img
}

# Returns "" when every checked image is clean, else the first complaint.
# UNCLEAN: the guest never powered off (pl_unclean).
proc pl_disks_check {disks unclean} {
	global S
	set why ""
	foreach d $disks {
		if {![dict get $d check] && ![dict get $d show]} {
			continue
		}
		set img [dict get $d img]
		set vd [dict get $d vd]
		set failed [catch {exec e2fsck -fn $img 2>@1} out]
		set gist [pl_fsck_gist $out]
		set bad [expr {$failed || $gist ne ""}]
		if {$bad && [dict get $d leaks] && [pl_fsck_only_leaks $out]} {
			set bad 0
			set verdict "only leaked blocks:\n$out"
		} else {
			set verdict [expr {$bad ? "complaints:\n$out" : "clean"}]
		}
		if {[dict get $d show]} {
			pl_emit "=== E2FSCK $verdict\n"
		}
		append S(fsck) "# e2fsck -fn $img ($vd): [expr {!$bad ?
		    "clean" : $unclean ? "COMPLAINED (the guest never powered\
		    off: the image was never cleanly unmounted)" :
		    "COMPLAINED"}]\n"
		foreach l [split $out \n] {
			append S(fsck) "#   $l\n"
		}
		if {$bad && [dict get $d check] && $why eq ""} {
			if {$gist eq ""} {
				set gist "exit status non-zero, no message"
			}
			set why [pl_fsck_why $vd $gist $unclean]
		}
	}
	return $why
}

proc pl_fsck_why {vd gist unclean} {
	if {$unclean} {
		return "e2fsck of $vd (never cleanly unmounted): $gist"
	}
	return "e2fsck complained about $vd: $gist"
}

# The first line of e2fsck's output that is not its routine chatter, or ""
# when it said nothing else.  Its exit status is not enough: e2fsck -n
# exits 0 after "Free blocks count wrong", and pagelab keeps counts exact.
#
# "last write (or mount) time is in the future" is chatter too: the guest
# reads the host's clock once at boot and then counts its own time, which
# under -icount (make bench) runs ahead of the host's; e2fsck compares the
# superblock's times with the host's clock, which says nothing about the
# file system (and it exits 0).
proc pl_fsck_gist {out} {
	foreach l [split $out \n] {
		set l [string trim $l]
		if {$l eq "" || [regexp {^(e2fsck \d|Pass \d)} $l] ||
		    [regexp {: \d+/\d+ files \(.*\), \d+/\d+ blocks$} $l] ||
		    [regexp {^Superblock last (write|mount) time is in the future\.$} $l] ||
		    [regexp {^\(by less than a day, probably due to the hardware clock being incorrectly set\)$} $l]} {
			continue
		}
		return $l
	}
	return ""
}

# True when every line of e2fsck -fn's output is its routine chatter or
# about leaked blocks: bitmap differences that are all "-" (in use in the
# bitmap, in no file: what an injected failure to free leaves) and the
# free counts that follow from them.
proc pl_fsck_only_leaks {out} {
	set leaks 0
	foreach l [split $out \n] {
		set l [string trim $l]
		if {[regexp {^Block bitmap differences: +(-(\d+|\(\d+--\d+\)) *)+$} $l]} {
			set leaks 1
		} elseif {$l ne "" && ![regexp {^(e2fsck \d|Pass \d|Fix\? no$|Free blocks count wrong( for group #\d+)? \(\d+, counted=\d+\)\.$|.*: \*+ WARNING: Filesystem still has errors \*+$|.*: \d+/\d+ files .*blocks$|child process exited abnormally$)} $l]} {
			return 0
		}
	}
	return $leaks
}
