# pagelab: one entry point.
#   make            build the kernel, userland, initramfs and images under build/
#   make run        boot to the console (Ctrl-A X quits QEMU), build/disk.img
#                   on /mnt (BLOCKSIZE=, TRUNCATE=old|new, FRESH=1)
#   make test       build everything and run every test; last line "N passed, N failed"
#   make grade      points per list and "Score: X/Y", build/grade/results.json
#                   (Gradescope) and junit.xml; LAB=name (or the name in
#                   ./.lab, which a student tree has) grades one lab
#   make lab LAB=name  the student tree of a lab (build/lab-name): its
#                   fenced solution code replaced by stubs (lab/*/README.md);
#                   FROM=DIR: a student's own code of the earlier labs
#   make handin     in a student tree: handin-LAB.tar.gz to hand in, graded
#                   by scripts/grade-submission in the staff tree
#   make autograder LAB=name  build/autograder-LAB.zip for Gradescope
#   make iso        GRUB rescue ISO (build/pagelab.iso); make run-iso boots it
#   make gdb        boot what make run boots, halted, with the gdb stub;
#                   attach with gdb -x build/gdbinit (DEBUG=1: built -Og,
#                   so locals print; any target takes DEBUG=1)
#   make bench      benchmarks (never part of make test)
#   make bench-smp  only bench's several-CPU table (SMP=N CPUs against one)
#   make dist       build/pagelab-VERSION.tar.gz (works without git);
#                   STUDENT=1: the first lab's tree, for students
#   make docs       doc/truncate-sequences.svg (scripts/trace-diagram)
#   make stress     many seeded boots of the stress programs (scripts/stress;
#                   STRESS_ARGS="--boots 300 --only mmap-1k" to choose)
#   make deps       install the host tools (apt-get, as root)
#   make clean
# Kernel C uses the host gcc with freestanding flags, or $(TOOLPREFIX)gcc when
# an x86_64-elf- cross compiler is on PATH.

B := build
# V=1 shows full commands.
Q := $(if $(V),,@)

TOOLPREFIX ?= $(shell command -v x86_64-elf-gcc >/dev/null 2>&1 && echo x86_64-elf-)
CC := $(TOOLPREFIX)gcc
LD := $(TOOLPREFIX)ld
# nm with its target named: left to guess, it loads every plugin in
# bfd-plugins, and Debian's LLVMgold brings in all of libLLVM (0.08 s a
# run, twice per kernel, for 76 mutants; 0.01 s with the target named).
NM := $(TOOLPREFIX)nm --target=elf64-x86-64
OBJDUMP := $(TOOLPREFIX)objdump
MUSLCC ?= musl-gcc
HOSTCC ?= gcc

WERROR ?= -Werror
# DEBUG=1: -Og, so that gdb can print locals and step line by line
# (make gdb DEBUG=1). Switching rebuilds the kernel (build/kcflags).
KOPT := $(if $(DEBUG),-Og,-O2)
KCFLAGS := -std=gnu11 $(KOPT) -g -ffile-prefix-map=$(CURDIR)=. -Wall -Wextra $(WERROR) -Wno-unused-parameter \
	-Wno-missing-field-initializers -Wno-sign-compare \
	-ffreestanding -fno-builtin -nostdinc -fno-pic -fno-pie \
	-mcmodel=kernel -mno-red-zone -mgeneral-regs-only \
	-fno-stack-protector -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-optimize-sibling-calls \
	-fno-strict-aliasing -fno-common -fno-asynchronous-unwind-tables \
	-fno-delete-null-pointer-checks -Iinclude -Iarch/x86/include -MMD -MP
KASFLAGS := -Iinclude -Iarch/x86/include -D__ASSEMBLY__ -MMD -MP
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack \
	--no-warn-rwx-segments -T $(B)/kernel.ld
# NODEBUG=1: a kernel.elf without debug information, for kernels that are
# only booted (scripts/check-mutants builds 76 of them): the link and the
# text check below take half the time. Backtraces need only kallsyms.
KLDFLAGS_FINAL := $(if $(NODEBUG),-S)

KDIRS := arch kernel mm lib fs block drivers
KSRC_C := $(shell find $(KDIRS) -name '*.c' 2>/dev/null | sort)
KSRC_S := $(shell find $(KDIRS) -name '*.S' ! -name '*.ld.S' 2>/dev/null | sort)
KOBJS := $(KSRC_C:%.c=$(B)/%.o) $(KSRC_S:%.S=$(B)/%.o)

UCFLAGS := -static -O2 -g -ffile-prefix-map=$(CURDIR)=. -Wall -Wextra -Werror -std=gnu11 -Iuserland/include -idirafter include
UBIN := $(patsubst userland/bin/%.c,$(B)/userland/bin/%,$(wildcard userland/bin/*.c))
UTESTS := $(patsubst userland/tests/%.c,$(B)/userland/tests/%,$(wildcard userland/tests/*.c))
UBENCH := $(patsubst userland/bench/%.c,$(B)/userland/bench/%,$(wildcard userland/bench/*.c))
# Dynamically linked programs, each built twice: with the host's gcc
# against glibc and with musl-gcc without -static. They run through their
# loader, which scripts/elf-libs brings into the guest with the libraries.
UDYN := $(foreach c,$(wildcard userland/dynamic/*.c),$(patsubst userland/dynamic/%.c,$(B)/userland/dynamic/%-glibc,$(c)) $(patsubst userland/dynamic/%.c,$(B)/userland/dynamic/%-musl,$(c)))
UDCFLAGS := $(filter-out -static -Iuserland/include -idirafter include,$(UCFLAGS))
USERLAND := $(UBIN) $(UTESTS) $(UBENCH) $(UDYN)

.PHONY: all kernel userland images run run-iso iso test grade lab handin autograder gdb bench bench-smp stress race-rates dist docs deps clean check-deps FORCE
FORCE:
all: kernel userland $(B)/initramfs.cpio images

kernel: $(B)/kernel.elf $(B)/kernel.asm $(B)/kernel.sym

# The optimisation the kernel was last built with: objects depend on it,
# so DEBUG=1 and back rebuild them. Rewritten only when it changes. (Not
# all of KCFLAGS: it names the tree's path, and a copied tree, a lab's
# or a mutant's, keeps its objects.)
$(B)/kcflags: FORCE
	@mkdir -p $(B)
	@echo '$(KOPT)' | cmp -s - $@ || echo '$(KOPT)' > $@

$(B)/%.o: %.c $(B)/kcflags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(B)/%.o: %.S $(B)/kcflags
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

$(B)/kernel.ld: arch/x86/kernel/kernel.ld.S arch/x86/include/asm/boot.h
	@mkdir -p $(B)
	$(Q)$(CC) -E -P -x c -Iinclude -Iarch/x86/include -D__ASSEMBLY__ $< -o $@

# Two links: the first with an empty symbol table, the second with the table
# generated from the first. The table sits after all text, so the second link
# moves no function; the cmp below proves it. The first is read only for its
# symbols: linked without debug information (-S), it takes half the time,
# which every mutant's and lab tree's kernel pays again.
$(B)/kallsyms0.S: scripts/gen-kallsyms
	@mkdir -p $(B)
	$(Q)scripts/gen-kallsyms < /dev/null > $@

$(B)/kernel.pass1.elf: $(KOBJS) $(B)/kallsyms0.o $(B)/kernel.ld
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) -S -o $@ $(KOBJS) $(B)/kallsyms0.o

$(B)/kernel.pass1.sym: $(B)/kernel.pass1.elf
	$(Q)$(NM) -n $< > $@

$(B)/kallsyms.S: $(B)/kernel.pass1.sym scripts/gen-kallsyms
	@echo "  KSYMS   $@"
	$(Q)scripts/gen-kallsyms < $< > $@

$(B)/kallsyms0.o $(B)/kallsyms.o: $(B)/%.o: $(B)/%.S
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

$(B)/kernel.elf: $(KOBJS) $(B)/kallsyms.o $(B)/kernel.ld $(B)/kernel.pass1.sym
	@echo "  LD      $@"
	$(Q)$(LD) $(KLDFLAGS) $(KLDFLAGS_FINAL) -o $@ $(KOBJS) $(B)/kallsyms.o
	@grep -i ' t ' $(B)/kernel.pass1.sym > $(B)/text1.sym
	@$(NM) -n $@ | grep -i ' t ' > $(B)/text2.sym
	@cmp -s $(B)/text1.sym $(B)/text2.sym || \
		{ echo "kallsyms: second link moved text"; rm -f $@; exit 1; }
	@scripts/check-image $@ || { rm -f $@; exit 1; }

$(B)/kernel.asm: $(B)/kernel.elf
	$(Q)$(OBJDUMP) -d -S --no-show-raw-insn $< > $@

$(B)/kernel.sym: $(B)/kernel.elf
	$(Q)$(NM) -n $< > $@

# Userland: static musl binaries, identical on pagelab and the host Linux.
userland: $(USERLAND)

$(B)/userland/bin/%: userland/bin/%.c $(wildcard userland/include/*.h include/pagelab/*.h)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) $(UCFLAGS) -o $@ $<

$(B)/userland/tests/%: userland/tests/%.c $(wildcard userland/include/*.h)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) $(UCFLAGS) -o $@ $<

$(B)/userland/dynamic/%-glibc: userland/dynamic/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(HOSTCC) $(UDCFLAGS) -o $@ $< -lm

$(B)/userland/dynamic/%-musl: userland/dynamic/%.c
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) $(UDCFLAGS) -o $@ $< -lm

# The initramfs: busybox (the shell and the utilities: Debian's
# busybox-static, which make deps installs) and pagelab's programs in /bin,
# test programs in /tests (scripts/mkinitramfs).
BUSYBOX ?= /bin/busybox
export BUSYBOX
$(B)/host/mkcpio: scripts/host/mkcpio.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -O2 -Wall -o $@ $<

$(B)/initramfs.cpio: $(B)/host/mkcpio $(USERLAND) scripts/mkinitramfs userland/etc/passwd userland/etc/group $(wildcard $(BUSYBOX)) $(wildcard userland/tests/*.sh userland/tests/*.expected)
	@echo "  CPIO    $@"
	$(Q)scripts/mkinitramfs $@

$(B)/userland/bench/%: userland/bench/%.c $(wildcard userland/include/*.h)
	@mkdir -p $(dir $@)
	@echo "  MUSLCC  $@"
	$(Q)$(MUSLCC) $(UCFLAGS) -o $@ $<

# The disk images the tests attach, made here, before any test runs, so
# that the boots only read them: build/images (scripts/mkimages, RAM
# disks) and build/corrupt (scripts/mkcorrupt-images, damaged on purpose;
# made aside and renamed, so that a half-made set never looks whole).
images: $(B)/images/.made $(B)/corrupt/MANIFEST

$(B)/images/.made: scripts/mkimages
	@echo "  IMAGES  $(B)/images"
	$(Q)scripts/mkimages && touch $@

$(B)/corrupt/MANIFEST: scripts/mkcorrupt-images
	@echo "  IMAGES  $(B)/corrupt"
	$(Q)rm -rf $(B)/corrupt.tmp && \
		scripts/mkcorrupt-images $(B)/corrupt.tmp >/dev/null && \
		rm -rf $(B)/corrupt && mv $(B)/corrupt.tmp $(B)/corrupt

$(B)/pagelab.iso: $(B)/kernel.elf scripts/mkiso
	scripts/mkiso $(B)/kernel.elf $@

iso: $(B)/pagelab.iso

# Tools first: a fresh machine has none of them (scripts/deps installs).
check-deps:
	@scripts/deps

# make run boots with build/disk.img on /mnt (scripts/mkdisk makes it the
# first time): BLOCKSIZE=1024|2048|4096 for a new one, FRESH=1 to start
# again, TRUNCATE=old|new for the mount's truncate sequence.
BLOCKSIZE ?= 1024
TRUNCATE ?= new
DISK ?= $(B)/disk.img
# make gdb boots the same, halted, with QEMU's gdb stub (DEBUG=1: -Og).
# SMP=N: N CPUs (1 to 8).
RUN_ARGS = --disk $(DISK) $(if $(SMP),--smp $(SMP)) -- pagelab.disk=/dev/vda \
	pagelab.disk_opts=truncate=$(TRUNCATE)
run: check-deps
	@$(MAKE) --no-print-directory all
	@scripts/mkdisk $(DISK) $(BLOCKSIZE) $(if $(FRESH),fresh)
	scripts/qemu $(RUN_ARGS)

run-iso: check-deps
	@$(MAKE) --no-print-directory all iso
	scripts/qemu --iso

gdb: check-deps
	@$(MAKE) --no-print-directory all
	@scripts/mkdisk $(DISK) $(BLOCKSIZE) $(if $(FRESH),fresh)
	scripts/qemu --gdb $(RUN_ARGS)

test: check-deps
	@$(MAKE) --no-print-directory -j$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) all iso
	@scripts/run-tests --show-failed

# One lab (its list and its grade-also tests) when LAB or ./.lab names it.
grade: check-deps
	@$(MAKE) --no-print-directory all iso
	@lab='$(LAB)'; \
	if [ -z "$$lab" ] && [ -f .lab ]; then lab=$$(tr -d '[:space:]' < .lab); fi; \
	echo "scripts/run-tests --grade$${lab:+ --lab $$lab}"; \
	scripts/run-tests --grade $${lab:+--lab "$$lab"}; status=$$?; \
	if [ -n "$$lab" ] && [ -f .lab ]; then scripts/answers "$$lab" | tail -1; fi; \
	exit $$status

bench: check-deps
	@$(MAKE) --no-print-directory all
	scripts/bench

# Only the several-CPU table (bench.list's smp lines): SMP=N CPUs against
# one (default 2).
bench-smp: check-deps
	@$(MAKE) --no-print-directory all
	$(if $(SMP),BENCH_SMP=$(SMP) )scripts/bench '^smp '

# make docs: doc/truncate-sequences.svg, the old and the new truncate
# sequence side by side (scripts/trace-diagram over a traced ftruncate of
# each, booted with pagelab-run, whose output is kept in DOCLOGS).
# DOCDIR=dir writes elsewhere.
DOCDIR ?= doc
DOCLOGS ?= $(B)/docs
docs: check-deps
	@$(MAKE) --no-print-directory all
	@mkdir -p $(DOCLOGS) $(DOCDIR)
	@for s in old new; do scripts/pagelab-run --blocksize 1024 --size 8M \
		--mount-opts truncate=$$s $(B)/userland/tests/trace_truncate \
		> $(DOCLOGS)/trace-$$s.log 2>&1 || exit 1; done
	scripts/trace-diagram -o $(DOCDIR)/truncate-sequences.svg \
		--title "old sequence: i_size first, then ->truncate (vmtruncate)" \
		$(DOCLOGS)/trace-old.log \
		--title "new sequence: the file system owns it (ext2_setsize)" \
		$(DOCLOGS)/trace-new.log

# make dist: build/pagelab-VERSION.tar.gz (DISTDIR=dir: elsewhere), the
# committed tree, which builds, tests and makes labs without git; with
# STUDENT=1, build/pagelab-student-VERSION.tar.gz, the first lab's student
# tree (no solutions, mutants or hidden tests).
DISTDIR ?= $(B)
dist:
	@scripts/mkdist $(if $(STUDENT),--student) $(DISTDIR)/pagelab-$(if $(STUDENT),student-)$$(sed -n 's/^#define PAGELAB_VERSION "\(.*\)"/\1/p' include/kernel/version.h).tar.gz

stress: check-deps
	@$(MAKE) --no-print-directory all
	scripts/stress $(STRESS_ARGS)

# make race-rates RATES="fix-off race/race-no-mapping-recheck": how often
# the race stress (tests/races.list, no window held) catches each wrong
# kernel in 10 runs (scripts/race-rates; RATES_ARGS="--runs N").
race-rates: check-deps
	@$(MAKE) --no-print-directory all
	scripts/race-rates $(RATES_ARGS) $(or $(RATES),reference)

# build/autograder-LAB.zip: what Gradescope runs to grade LAB's hand-ins
# in this (the staff's) tree (scripts/mkautograder).
autograder:
	@[ -n "$(LAB)" ] || { echo "usage: make autograder LAB=name"; exit 2; }
	@scripts/mkautograder $(LAB) $(or $(OUT),$(B)/autograder-$(LAB).zip)

# In a student tree: handin-LAB.tar.gz, the lab's regions and answers
# (scripts/handin); scripts/grade-submission grades it in the staff tree.
handin:
	@scripts/handin

# FROM=DIR: the student's own code of the earlier labs, from their tree
# (or hand-in) of an earlier lab, instead of the staff's.
lab:
	@[ -n "$(LAB)" ] || { echo "usage: make lab LAB=name [FROM=DIR] (labs, in course order: $$(grep -v '^#' lab/ORDER | tr '\n' ' '))"; exit 2; }
	scripts/mklab $(if $(FROM),--from $(FROM)) $(LAB) $(or $(OUT),build/lab-$(LAB))

# The host packages, and Debian's Linux kernel for pagelab-run --linux
# (once per machine: scripts/linux-kernel dir says where).
deps:
	@scripts/deps
	@scripts/linux-kernel fetch

clean:
	rm -rf $(B)

# Only this tree's dependency files: build/ also holds whole lab, mutant and
# dist trees (thousands of .d files), and every pagelab-run calls make.
-include $(wildcard $(KOBJS:.o=.d) $(B)/kallsyms.d $(B)/kallsyms0.d)
