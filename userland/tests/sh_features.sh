# sh_features.sh - walk the shell (busybox's ash, /bin/sh in pagelab)
# through its features, and with it the kernel under it: fork, exec and
# its errors, wait statuses, signals, pipes, fds, dup2, globbing (getdents),
# cwd.
#
# Run, from this directory (error lines name the script as given):
#       sh sh_features.sh > out 2>&1 ; compare out with sh_features.expected
# sh_features.expected is what the same busybox prints on the host Linux
# (userland/Makefile's check compares both): pagelab must print the same.
# Needs: PATH reaching busybox's applets (echo, cat, ls, mkdir, rm, kill,
# sleep, true, false, seq, wc, basename); a writable ${TMPDIR:-/tmp}. Every
# line of output is deterministic (no pids, times or absolute paths), so a
# byte compare is the verdict.
T=${TMPDIR:-/tmp}/sh_features.$$
mkdir -p "$T" && cd "$T" || exit 1

echo "== words and quotes"
echo plain    words
echo 'single  $HOME "double" \n'
echo "double  'single' \$ \" \\ \x"
echo back\ slash \$HOME \'
echo "multi
line"
echo con\
tinued
echo '' "" end
echo a"b"'c'd

echo "== variables"
X=hello; echo $X ${X} "${X}!" ${#X}
unset X; echo "[$X] [${X:-default}] [${X-unset}]"
E=; echo "[${E:-colon}] [${E-nocolon}]"
S="a  b   c"; echo $S; echo "$S"
A=1 B=2; echo $A$B
export V=exported; sh -c 'echo child sees $V'
W=temp sh -c 'echo prefix assignment: $W'; echo "after: [$W]"
echo "a \$ sign: $ and $1x"
echo ${X:-split  default} "${X:-kept  default}"
sh -c 'echo $# args: "$@"' zero one 'two  words' ''
sh -c 'sh -c "echo \$#" x "$@"' zero one 'two  words' ''

echo "== exit status"
true; echo true $?
false; echo false $?
sh -c 'exit 42'; echo exit $?
sh -c 'exit 256'; echo exit256 $?
! true; echo not $?
! false; echo not $?

echo "== not found, not executable"
nosuchcommand; echo $?
echo 'echo x' > noexec; ./noexec; echo $?
/no/such/file; echo $?
mkdir adir; ./adir; echo $?

echo "== signals"
sh -c 'kill -SEGV $$'; echo $?
sh -c 'kill -TERM $$'; echo $?
sh -c 'kill -KILL $$'; echo $?
sh -c 'kill -PIPE $$'; echo $?

echo "== and, or"
true && echo and-yes; false && echo and-no
false || echo or-yes; true || echo or-no
false && echo no || echo fallback
true &&
  echo continued after newline
false ||
  false ||
  echo two lines later

echo "== redirections"
echo one > f; echo two >> f; cat f
cat < f
cat nosuch 2> err; echo status $?; cat err
echo to-stderr >&2
echo lost 1>&2 2>/dev/null
echo kept 2>/dev/null
cat < nosuch; echo $?
echo x > /no/such/dir/file; echo $?
pwd > pwdfile; echo after pwd; cat pwdfile > /dev/null && echo pwd went to the file
echo 3 > three; cat 0< three
echo fd3 3> fd3file >&3; cat fd3file

echo "== pipelines"
echo piped | cat
echo long | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat
echo in | sh -c 'cat; exit 3'; echo last status $?
echo on |
  cat

echo "== sequences and background"
echo a; echo b ; echo c;
sleep 0.1 & wait; echo waited $?
sh -c 'exit 5' & wait $!; echo background status $?

echo "== cd"
mkdir -p sub/deeper; cd sub; ls ..; cd deeper; cd ../..; ls sub
cd /nonexistent; echo $?
cd

echo "== scripts"
cd "$T"
echo 'echo script $0 has $# args: $1 / $2 / $@' > script.sh
sh script.sh a 'b c'
sh -c 'echo dash-c $0 $1' name arg
echo 'exit 7' > s7; sh s7; echo $?
echo 'echo from a file with no interpreter line' > plain
sh plain
sh nosuchscript; echo $?

echo "== comments"
echo visible # invisible
# a whole line
echo "# not a comment" '#' x#y

echo "== glob"
: > g1.txt; : > g2.txt; : > h.txt
echo g*.txt; echo "g*.txt"; echo g?.txt; echo [gh]*.txt; echo nomatch*

echo "== control flow"
if true; then echo if-then; else echo if-else; fi
if false; then echo no; elif true; then echo elif; fi
for i in 1 2 3; do echo x$i; done
for f in g*.txt; do echo "for over glob: $f"; done
n=0; while [ $n -lt 3 ]; do n=$((n + 1)); echo while $n; done
until [ $n -eq 0 ]; do n=$((n - 1)); done; echo until $n
for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo loop $i; done
case hello.c in *.h) echo header;; *.c) echo source;; *) echo other;; esac
greet() { local who=$1; echo "hello, $who ($# args)"; return 3; }
greet world extra; echo "function status $?"; echo "local gone: [$who]"
echo "arith $((6 * 7)) $(( (1 << 4) % 7 ))"
echo "subst [$(echo inner | cat)] [`echo back`] [$(seq 3 | wc -l)]"
cat <<END
here-doc $((1 + 1)) ${X:-x}
END
cat <<'END'
quoted $HOME
END
(cd /; pwd); [ "$PWD" = "$T" ] && echo "subshell left cwd alone"
{ echo group1; echo group2; } | cat
x=outer; f2() { x=inner; }; f2; echo "function sets globals: $x"
set -- a b c; shift; echo "shifted: $# $*"

echo "== builtins"
export EXPORTED=yes; sh -c 'echo $EXPORTED'
sh -c 'export 1bad=x'; echo $?
: ; echo colon $?
sh -c 'exit'; echo $?
sh -c 'false; exit'; echo $?
sh -c 'exit x'; echo $?

echo "== syntax errors"
sh -c 'echo a |'; echo $?
sh -c '| echo'; echo $?
sh -c 'echo "open'; echo $?
sh -c 'echo ${A B}'; echo $?

cd /; rm -r "$T"
echo "== done"
