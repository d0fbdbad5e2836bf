# scripts/disks.tcl -- the disks of a test boot.
#
# Every boot gets fresh copies, so no test sees another's writes:
#   disk FILE              copy of FILE, checked with e2fsck -fn afterwards
#   disk {new SIZE OPT...} a new ext2 image: mke2fs -t ext2 OPT... IMG SIZE
#                          (e.g. {new 8M -b 1024 -I 128}, {new 4M -d DIR})
#   rawdisk FILE           copy of FILE, not checked (corrupt images)
# The copies live in build/test-disks/PID/BOOT-vdX.img (PID: the run's, so
# that two runs in one tree never share an image; the worker processes of a
# parallel run, run-tests -j, use their parent's) and are attached in order
# as virtio-blk disks, so the guest sees /dev/vda, /dev/vdb, ...  They are
# deleted when the boot passes and kept, for a look, when it fails.
#
# Roadmap:
#   pl_disks_run       the PID of the run the copies belong to
#   pl_disks_prepare   make the copies -> list of {image check? vdX}
#   pl_disks_check     e2fsck -fn each checked image after the run; any
#                      line beyond its routine chatter fails the boot; all
#                      its output is kept for the log.  After a guest that
#                      never powered off, complaints are labelled as what
#                      they most likely are: an image never unmounted
#   pl_fsck_why        that complaint in words, for run-tests and for
#                      scripts/pagelab-run's own e2fsck (verdict.tcl)
#   pl_disks_cleanup   delete a passing boot's copies
#   pl_disks_prune     at the start of a run, delete what earlier runs kept

# A worker of a parallel run sets ::pl::disks_run to its parent's pid.
proc pl_disks_run {} {
	if {[info exists ::pl::disks_run]} {
		return $::pl::disks_run
	}
	return [pid]
}

proc pl_disks_prepare {boot} {
	set dir build/test-disks/[pl_disks_run]
	set out {}
	set letters abcdefghijklmnopqrstuvwxyz
	foreach {kind spec} [dict get $boot disks] {
		set vd vd[string index $letters [llength $out]]
		set img $dir/[dict get $boot name]-$vd.img
		file mkdir $dir
		file delete -force $img
		pl_disk_make $spec $img
		lappend out [list $img [expr {$kind eq "disk"}] $vd]
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

# Delete the copies of a boot that passed (and the run's folder once empty,
# unless other workers share it: their parent deletes it at the end).
proc pl_disks_cleanup {disks} {
	foreach d $disks {
		file delete -force [lindex $d 0]
	}
	if {![info exists ::pl::disks_run]} {
		catch {file delete build/test-disks/[pid]}
	}
}

# Delete the folders of earlier runs that are over (their kept images were
# for looking at until the next run, like the logs).
proc pl_disks_prune {} {
	foreach dir [glob -nocomplain -type d build/test-disks/*] {
		set p [file tail $dir]
		if {[string is digit -strict $p] && $p != [pid] &&
		    [catch {exec kill -0 $p 2>/dev/null}]} {
			file delete -force $dir
		}
	}
}

# Returns "" when every checked image is clean, else the first complaint.
# UNCLEAN: the guest never powered off (pl_unclean).
proc pl_disks_check {disks unclean} {
	global S
	set why ""
	foreach d $disks {
		lassign $d img check vd
		if {!$check} {
			continue
		}
		set failed [catch {exec e2fsck -fn $img 2>@1} out]
		set gist [pl_fsck_gist $out]
		set bad [expr {$failed || $gist ne ""}]
		append S(fsck) "# e2fsck -fn $img ($vd): [expr {!$bad ?
		    "clean" : $unclean ? "COMPLAINED (the guest never powered\
		    off: the image was never cleanly unmounted)" :
		    "COMPLAINED"}]\n"
		foreach l [split $out \n] {
			append S(fsck) "#   $l\n"
		}
		if {$bad && $why eq ""} {
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
proc pl_fsck_gist {out} {
	foreach l [split $out \n] {
		set l [string trim $l]
		if {$l eq "" || [regexp {^(e2fsck \d|Pass \d)} $l] ||
		    [regexp {: \d+/\d+ files \(.*\), \d+/\d+ blocks$} $l]} {
			continue
		}
		return $l
	}
	return ""
}
