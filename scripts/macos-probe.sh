#!/bin/bash
# Checks toolrt's macOS sandbox on a real Mac: every probe prints one line,
#   WORKS   <finding> <what>: ok | BROKEN     (everyday work the sandbox must allow)
#   BLOCKED <finding> <what>: ok | LEAK       (an escape the sandbox must stop)
#   GAP     <finding> <what>: <what happened> (a documented limit, shown as it is)
#   SKIP    <finding> <what>: <why>
# and a summary last; the exit status is 1 when any probe says BROKEN or LEAK.
#
# Usage, from a toolrt checkout on a Mac:
#   scripts/macos-probe.sh                  # uses dist/toolrt if built, else `bun src/cli/main.ts`
#   scripts/macos-probe.sh /path/to/toolrt  # any toolrt command
#
# Most probes run a shell under the profile `toolrt sandbox --print-profile macos` prints (with its
# `; -D NAME="value"` parameters, the run's temp dir made here); the rest run `toolrt sandbox` itself
# (network proxy, new session, process cap, process group, system-log report, nesting). Findings
# are numbered as in src/sandbox/README.md ("macOS: how each finding is handled").
#
# Everything it writes is under a scratch directory in $HOME and one in /tmp, both removed at the
# end. Two probes could touch the real terminal or caches if the sandbox failed: TIOCSTI types one
# "#" at your prompt on a LEAK, and the @package-caches probe writes (and removes) one file.
# The probes' commands are single-quoted on purpose: they expand inside the sandbox, not here.
# shellcheck disable=SC2016
set -u
[ "$(uname -s)" = Darwin ] || { echo "macos-probe.sh: run this on a Mac (sandbox-exec)" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -gt 0 ]; then TOOLRT=("$@")
elif [ -x "$ROOT/dist/toolrt" ]; then TOOLRT=("$ROOT/dist/toolrt")
elif [ -x "$ROOT/node_modules/.bin/bun" ]; then TOOLRT=("$ROOT/node_modules/.bin/bun" "$ROOT/src/cli/main.ts")
else TOOLRT=(bun "$ROOT/src/cli/main.ts"); fi

SCRATCH=$(mktemp -d "$HOME/toolrt-probe.XXXXXX")
TMPWS=$(mktemp -d /tmp/toolrt-probe.XXXXXX)  # through the /tmp -> /private/tmp link
RUNTMP=$(mktemp -d "${TMPDIR:-/tmp}/toolrt-probe-run.XXXXXX")  # as $TMPDIR gives it: /var/folders/...
LISTENER=""
cleanup() { [ -n "$LISTENER" ] && kill "$LISTENER" 2>/dev/null; rm -rf "$SCRATCH" "$TMPWS" "$RUNTMP"; }
trap cleanup EXIT
BROKEN=0 LEAKS=0 OKS=0

WS="$SCRATCH/ws"
mkdir -p "$WS/src" "$WS/.claude" "$WS/bin" && cd "$WS" || exit 1
git init -q . && git -c user.email=p@x -c user.name=p commit -q --allow-empty -m init
echo "SECRET=1" > .env
(mkdir nest && cd nest && git init -q .)                       # a nested repository before the run
echo outside > "$SCRATCH/outside.txt"; ln "$SCRATCH/outside.txt" "$WS/prelinked"  # a hard link made before
printf '#!/bin/sh\necho dash-ok\n' > bin/-dash && chmod +x bin/-dash
FRESH="$SCRATCH/fresh"; mkdir -p "$FRESH"                        # no .git: git init at its root
LONG="$SCRATCH"; for i in 1 2 3 4 5 6; do LONG="$LONG/$(printf 'long%.0s' $(seq 1 45))-$i"; done
mkdir -p "$LONG"                                                 # a path over sandbox-exec's 1,024-byte strings

print_profile() { # OUT WORKSPACE [FLAGS...]
  local out=$1 ws=$2; shift 2
  (cd "$ws" && "${TOOLRT[@]}" sandbox --print-profile macos --workspace "$ws" "$@") > "$out" 2> "$out.err" ||
    { echo "print-profile failed for $ws: $(cat "$out.err")"; return 1; }
}
P_MAIN="$SCRATCH/main.sb";   print_profile "$P_MAIN" "$WS" --deny-read .env --deny-read "$HOME/.ssh" || exit 1
P_LOCAL="$SCRATCH/local.sb"; print_profile "$P_LOCAL" "$WS" --allow-localhost || exit 1
P_FRESH="$SCRATCH/fresh.sb"; print_profile "$P_FRESH" "$FRESH" || exit 1
P_TMP="$SCRATCH/tmp.sb";     print_profile "$P_TMP" "$TMPWS" || exit 1
P_LONG="$SCRATCH/long.sb";   print_profile "$P_LONG" "$LONG" || exit 1
P_CACHE="$SCRATCH/cache.sb"; print_profile "$P_CACHE" "$WS" --allow-write @package-caches || exit 1

# The parameters of a printed profile, as -D arguments; the run's temp dir is ours, by its real path.
defs() {
  local line name value
  DEFS=()
  while IFS= read -r line; do
    name=${line#; -D }; name=${name%%=*}; value=${line#*=}
    value=${value#\"}; value=${value%\"}; value=${value//\\\"/\"}; value=${value//\\\\/\\}
    [ "$name" = TEMP_DIR ] && value=$(cd "$RUNTMP" && pwd -P)
    DEFS+=("-D$name=$value")
  done < <(grep '^; -D ' "$1")
}
# Runs a bash command under a printed profile, in its workspace, with $TMPDIR as the runtime sets it.
under() { # PROFILE WORKSPACE COMMAND
  defs "$1"
  (cd "$2" && env -u TOOLRT_PROBE_SECRET TMPDIR="$RUNTMP" /usr/bin/sandbox-exec -f "$1" "${DEFS[@]}" -- \
    /bin/bash -c "$3") > /dev/null 2>&1
}
report() { # KIND FINDING WHAT PASSED
  if [ "$4" = yes ]; then OKS=$((OKS + 1)); printf '%-8s %-4s %s: ok\n' "$1" "$2" "$3"
  elif [ "$1" = WORKS ]; then BROKEN=$((BROKEN + 1)); printf '%-8s %-4s %s: BROKEN\n' "$1" "$2" "$3"
  else LEAKS=$((LEAKS + 1)); printf '%-8s %-4s %s: LEAK\n' "$1" "$2" "$3"; fi
}
works()   { if under "$3" "${4:-$WS}" "$5"; then report WORKS "$1" "$2" yes; else report WORKS "$1" "$2" no; fi; }
blocked() { if under "$3" "${4:-$WS}" "$5"; then report BLOCKED "$1" "$2" no; else report BLOCKED "$1" "$2" yes; fi; }
skip() { printf '%-8s %-4s %s: %s\n' SKIP "$1" "$2" "$3"; }
have() { command -v "$1" > /dev/null 2>&1; }

for p in "$P_MAIN" "$P_LOCAL" "$P_FRESH" "$P_TMP" "$P_LONG" "$P_CACHE"; do
  defs "$p"; if /usr/bin/sandbox-exec -f "$p" "${DEFS[@]}" -- /usr/bin/true; then r=yes; else r=no; fi
  report WORKS F0 "profile loads: $(basename "$p")" "$r"
done

# F1 the temp dir is under /var/folders, Seatbelt sees /private/var/folders; /tmp is /private/tmp
works   F1 "write \$TMPDIR (/var/folders as given)"        "$P_MAIN" "$WS" 'echo x > "$TMPDIR/probe" && rm "$TMPDIR/probe"'
works   F1 "write a workspace given as /tmp/..."           "$P_TMP" "$TMPWS" 'echo x > probe'
blocked F1 "write the host's /tmp"                         "$P_MAIN" "$WS" 'echo x > /private/tmp/toolrt-probe-leak'
rm -f /private/tmp/toolrt-probe-leak
# F2 network through the proxy: HTTP_PROXY and ALL_PROXY (SOCKS) both reach it
if curl -s -o /dev/null --max-time 5 https://example.com; then
  for var in HTTPS_PROXY ALL_PROXY; do
    if "${TOOLRT[@]}" sandbox --workspace "$WS" --allow-net example.com -- /bin/sh -c \
      "curl -s -o /dev/null --max-time 10 -x \"\$$var\" https://example.com" > /dev/null 2>&1; then r=yes; else r=no; fi
    report WORKS F2 "curl through \$$var" "$r"
  done
  if "${TOOLRT[@]}" sandbox --workspace "$WS" --allow-net example.com -- /bin/sh -c \
    'curl -s -o /dev/null --max-time 10 -x "$ALL_PROXY" https://example.org' > /dev/null 2>&1; then r=no; else r=yes; fi
  report BLOCKED F2 "a host not allowed, through \$ALL_PROXY" "$r"
else skip F2 "proxy probes" "this Mac has no network"; fi
# F3 pseudo-terminals
if have python3; then works F3 "openpty (/dev/ptmx, python pty)" "$P_MAIN" "$WS" 'python3 -c "import os; os.openpty()"'
else skip F3 "openpty (python)" "no python3"; fi
works   F3 "script(1) runs a command on a new pty"         "$P_MAIN" "$WS" 'script -q /dev/null /usr/bin/true'
# F4 the command's own descriptors
works   F4 "echo > /dev/stdout"                            "$P_MAIN" "$WS" 'echo x > /dev/stdout'
works   F4 "echo > /dev/stderr"                            "$P_MAIN" "$WS" 'echo x > /dev/stderr'
works   F4 "echo > /dev/fd/3"                              "$P_MAIN" "$WS" 'exec 3>/dev/null; echo x > /dev/fd/3'
# F5 git
works   F5 "git init at the root of a workspace without .git" "$P_FRESH" "$FRESH" 'git init -q . && test -d .git/hooks'
works   F5 "git init in a subdirectory"                    "$P_MAIN" "$WS" 'mkdir -p sub && cd sub && git init -q .'
works   F5 "git add and commit"                            "$P_MAIN" "$WS" 'echo a > src/a && git add src/a && git -c user.email=p@x -c user.name=p commit -q -m a'
blocked F5 "git init again at the root (rewrites the protected .git/config)" "$P_MAIN" "$WS" 'git init -q .'
# F6 localhost, opt-in
LOCAL_TEST='python3 -c "import socket; s=socket.socket(); s.bind((\"127.0.0.1\",0)); s.listen(1); socket.create_connection(s.getsockname())"'
if have python3; then
  works   F6 "with --allow-localhost: listen and connect"  "$P_LOCAL" "$WS" "$LOCAL_TEST"
  blocked F6 "without it: listen and connect"              "$P_MAIN" "$WS" "$LOCAL_TEST"
  python3 -c 'import socket,time; s=socket.socket(); s.bind(("127.0.0.1",47777)); s.listen(5); time.sleep(120)' &
  LISTENER=$!; sleep 1
  blocked F6 "connect to a host service on localhost"      "$P_MAIN" "$WS" 'python3 -c "import socket; socket.create_connection((\"127.0.0.1\",47777))"'
else skip F6 "localhost" "no python3"; fi
# F7 what the system may be asked
works   F7 "sysctl hw.ncpu and machdep.cpu.brand_string"   "$P_MAIN" "$WS" 'sysctl -n hw.ncpu machdep.cpu.brand_string'
if have node; then works F7 "node os.cpus() is not empty" "$P_MAIN" "$WS" 'node -e "process.exit(require(\"os\").cpus().length > 0 ? 0 : 1)"'
else skip F7 "node os.cpus()" "no node"; fi
works   F7 "whoami and id (directory services)"            "$P_MAIN" "$WS" 'whoami && id -Gn'
blocked F7 "clipboard (pbpaste)"                           "$P_MAIN" "$WS" 'pbpaste'
blocked F7 "keychain (security show-keychain-info)"        "$P_MAIN" "$WS" 'security show-keychain-info "$HOME/Library/Keychains/login.keychain-db"'
blocked F7 "Launch Services (lsappinfo front)"             "$P_MAIN" "$WS" 'lsappinfo front | grep -q ASN'
blocked F7 "DNS (dscacheutil)"                             "$P_MAIN" "$WS" 'dscacheutil -q host -a name example.com | grep -q ip_address'
# F8 Seatbelt cannot nest: toolrt says so instead of failing obscurely
out=$(/usr/bin/sandbox-exec -p '(version 1)(allow default)' -- "${TOOLRT[@]}" sandbox --workspace "$WS" -- /usr/bin/true 2>&1)
case $out in *"do not nest"*) r=yes ;; *) r=no ;; esac
report WORKS F8 "inside another sandbox: refused with the reason" "$r"
# F9 package caches under ~/Library/Caches, opt-in
if [ -d "$HOME/Library/Caches/pip" ]; then
  works F9 "--allow-write @package-caches: write ~/Library/Caches/pip" "$P_CACHE" "$WS" 'f="$HOME/Library/Caches/pip/toolrt-probe"; echo x > "$f" && rm "$f"'
else skip F9 "@package-caches" "no ~/Library/Caches/pip here (pip makes it)"; fi
blocked F9 "without it: write in ~/Library/Caches"        "$P_MAIN" "$WS" 'echo x > "$HOME/Library/Caches/toolrt-probe-leak"'
blocked F9 "another application's cache, even with it"    "$P_CACHE" "$WS" 'echo x > "$HOME/Library/Caches/toolrt-probe-leak"'
rm -f "$HOME/Library/Caches/toolrt-probe-leak" "$HOME/Library/Caches/pip/toolrt-probe"
# F10 renaming what holds a protected path
blocked F10 "write .git/hooks directly"                    "$P_MAIN" "$WS" 'echo x > .git/hooks/pre-commit'
blocked F10 "mv .git g (then g/hooks is writable)"        "$P_MAIN" "$WS" 'mv .git g'
[ -d "$WS/g" ] && [ ! -e "$WS/.git" ] && mv "$WS/g" "$WS/.git"
blocked F10 "mv the workspace itself into \$TMPDIR"         "$P_MAIN" "$WS" 'mv "$PWD" "$TMPDIR/ws"'
[ -d "$RUNTMP/ws" ] && mv "$RUNTMP/ws" "$WS"
blocked F10 "replace .claude with a prepared directory"    "$P_MAIN" "$WS" 'mkdir -p n && echo {} > n/settings.json && rm -rf .claude && mv n .claude'
mkdir -p "$WS/.claude"
blocked F10 "write outside the workspace"                  "$P_MAIN" "$WS" "echo x > \"$SCRATCH/outside-write\""
blocked F10 "create .claude/settings.json"                 "$P_MAIN" "$WS" 'echo {} > .claude/settings.json'
blocked F10 "a symlink where .toolrt would be"             "$P_MAIN" "$WS" 'mkdir -p t && ln -s t .toolrt'
# F11 nested repositories
blocked F11 "write a nested repository's hook"             "$P_MAIN" "$WS" 'echo x > nest/.git/hooks/post-checkout'
blocked F11 "rename the nested repository away"            "$P_MAIN" "$WS" 'mv nest nest2'
if under "$P_MAIN" "$WS" 'mkdir -p new && cd new && git init -q . && echo x > .git/hooks/pre-commit'; then
  printf '%-8s %-4s %s\n' GAP F11 "a repository created during the run has writable hooks until the next run (as on Linux)"
fi
rm -rf "$WS/new"
# F12 a read-denied file inside the workspace
blocked F12 "read .env (--deny-read)"                      "$P_MAIN" "$WS" 'cat .env'
blocked F12 "rename .env, then read it"                    "$P_MAIN" "$WS" 'mv .env e2 && cat e2'
[ -f "$WS/e2" ] && mv "$WS/e2" "$WS/.env"
blocked F12 "hard-link .env, then read the link"           "$P_MAIN" "$WS" 'ln .env e3 && cat e3'
blocked F12 "clone .env (cp -c), then read the clone"      "$P_MAIN" "$WS" 'cp -c .env e4 && cat e4'
blocked F12 "read ~/.ssh (--deny-read)"                    "$P_MAIN" "$WS" 'ls "$HOME/.ssh"'
# F13 other processes' environment
export TOOLRT_PROBE_SECRET=hunter2  # in this script's environment, not the command's
blocked F13 "ps -E reads the parent's environment"         "$P_MAIN" "$WS" 'ps -E -ww -p $PPID | grep -q hunter2'
works   F13 "ps -p of its own process"                     "$P_MAIN" "$WS" 'ps -p $$ -o comm= | grep -q bash'
unset TOOLRT_PROBE_SECRET
# F14 TIOCSTI: the command runs in a session of its own
if [ -t 0 ] && have python3; then
  if "${TOOLRT[@]}" sandbox --workspace "$WS" -- python3 -c \
    'import fcntl,termios; fcntl.ioctl(0, termios.TIOCSTI, b"#")' > /dev/null 2>&1; then r=no; else r=yes; fi
  report BLOCKED F14 "TIOCSTI into your terminal (a \"#\" at your prompt means LEAK)" "$r"
  if "${TOOLRT[@]}" sandbox --workspace "$WS" -- /bin/sh -c 'test -t 0 && test -t 1' < /dev/tty > /dev/tty; then r=yes; else r=no; fi
  report WORKS F14 "the command still sees a terminal (isatty)" "$r"
else skip F14 "TIOCSTI" "stdin is not a terminal, or no python3"; fi
# F15 terminals: only the session's own and the ones made inside
blocked F15 "open another terminal for reading"            "$P_MAIN" "$WS" 'for t in /dev/ttys0*; do [ "$t" = "$(tty 2>/dev/null)" ] && continue; python3 -c "import os,sys; os.open(sys.argv[1], os.O_RDONLY|os.O_NONBLOCK)" "$t" 2>/dev/null && exit 0; done; exit 1'
if [ -t 0 ] && have python3; then
  works F15 "tty names the session's terminal"             "$P_MAIN" "$WS" 'tty < /dev/tty | grep -q "^/dev/ttys"'
  works F15 "reopen the session's own terminal"            "$P_MAIN" "$WS" 'python3 -c "import os; os.close(os.open(os.ttyname(0), os.O_RDWR))" < /dev/tty'
fi
# F16 case variants on the case-insensitive disk
blocked F16 "mkdir .TOOLRT"                                "$P_MAIN" "$WS" 'mkdir .TOOLRT'
blocked F16 "rename over .git/CONFIG"                      "$P_MAIN" "$WS" 'echo "[core]" > c && mv c .git/CONFIG'
blocked F16 "touch .BashRC"                                "$P_MAIN" "$WS" 'touch .BashRC'
blocked F16 "mv .GIT away"                                 "$P_MAIN" "$WS" 'mv .GIT g'
[ -d "$WS/g" ] && [ ! -e "$WS/.git" ] && mv "$WS/g" "$WS/.git"
# F17 hard links
blocked F17 "write a file hard-linked from outside before the run" "$P_MAIN" "$WS" 'echo changed >> prelinked'
blocked F17 "hard-link .git/config, then write the link"   "$P_MAIN" "$WS" 'ln .git/config hl && echo "#" >> hl'
blocked F17 "hard-link a file from outside in"             "$P_MAIN" "$WS" "ln \"$SCRATCH/outside.txt\" in2"
[ "$(cat "$SCRATCH/outside.txt")" = outside ] || report BLOCKED F17 "the outside file is unchanged" no
# F18 process cap and the process group
outer=$(ulimit -H -u)
inner=$("${TOOLRT[@]}" sandbox --workspace "$WS" -- /bin/sh -c 'ulimit -H -u' 2>/dev/null)
if [ -n "$inner" ] && { [ "$outer" = unlimited ] || [ "$inner" -lt "$outer" ]; }; then r=yes; else r=no; fi
report WORKS F18 "RLIMIT_NPROC set below the user's ($inner < $outer)" "$r"
"${TOOLRT[@]}" sandbox --workspace "$WS" -- /bin/sh -c '(sleep 301 &); exit 0' > /dev/null 2>&1
sleep 1
if pgrep -f "sleep 301" > /dev/null; then r=no; pkill -f "sleep 301"; else r=yes; fi
report BLOCKED F18 "a background child outlives the run" "$r"
if have python3; then
  "${TOOLRT[@]}" sandbox --workspace "$WS" -- python3 -c \
    'import os,subprocess; os.fork() == 0 and (os.setsid(), subprocess.Popen(["sleep","302"]))' > /dev/null 2>&1
  sleep 1
  if pgrep -f "sleep 302" > /dev/null; then
    printf '%-8s %-4s %s\n' GAP F18 "a child that calls setsid() outlives the run (no pid namespace on macOS)"
    pkill -f "sleep 302"
  fi
fi
# F19 long paths: the long workspace's profile loaded above (F0); and it works
works   F19 "write in a workspace whose path is over 1,024 bytes" "$P_LONG" "$LONG" 'echo x > f'
# F20 the run's denials are found in the system log by its tag
out=$("${TOOLRT[@]}" sandbox --workspace "$WS" -- /bin/sh -c 'mkdir .toolrt' 2>&1)
case $out in *".toolrt"*"Seatbelt denied"*) r=yes ;; *) r=no ;; esac
report WORKS F20 "a failed run names what Seatbelt denied it" "$r"
# F21 -- before the command
out=$(PATH="$WS/bin:$PATH" "${TOOLRT[@]}" sandbox --workspace "$WS" -- -dash 2>&1)
case $out in *dash-ok*) r=yes ;; *) r=no ;; esac
report WORKS F21 "a command whose name starts with -" "$r"

echo "summary: $OKS ok, $BROKEN broken, $LEAKS leaks"
[ "$BROKEN" -eq 0 ] && [ "$LEAKS" -eq 0 ]
