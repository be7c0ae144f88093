/**
 * Listing and inspecting files: coreutils 9.1 (ls, stat, du, df, realpath, readlink, basename,
 * dirname), file 5.44, tree 2, xxd, and the pagers less (590) and more (util-linux).
 */
import type { SpecFamily } from "../spec.ts";
import { effect, flags, HELP_VERSION, opt, optionals, values } from "./build.ts";

const NAMES = [{ role: "plain", repeat: true }] as const;

export const FILES: SpecFamily = {
  ls: {
    summary: "list directory contents",
    options: [
      ...flags("-a --all", "-A --almost-all", "--author", "-b --escape", "-B --ignore-backups", "-c", "-C"),
      ...flags("-d --directory", "-D --dired", "-f", "-F", "--file-type", "--full-time", "-g"),
      ...flags("--group-directories-first", "-G --no-group", "-h --human-readable", "--si"),
      ...flags("-H --dereference-command-line", "--dereference-command-line-symlink-to-dir", "-i --inode"),
      ...flags("-k --kibibytes", "-l", "-L --dereference", "-m", "-n --numeric-uid-gid", "-N --literal", "-o"),
      ...flags("-p", "-q --hide-control-chars", "--show-control-chars", "-Q --quote-name", "-r --reverse"),
      ...flags("-R --recursive", "-s --size", "-S", "-t", "-u", "-U", "-v", "-x", "-X", "-Z --context"),
      ...flags("--zero", "-1"),
      ...values("--block-size", "--format", "--hide", "--indicator-style", "-I --ignore", "--quoting-style"),
      ...values("--sort", "--time", "--time-style", "-T --tabsize", "-w --width"),
      ...optionals("--color --colour", "--classify", "--hyperlink"),
      ...HELP_VERSION,
    ],
    tests: {
      readOnly: ["ls -la", "ls --col=auto src", "ls -lhS *.ts"],
      notReadOnly: ["ls --bogus", "ls -j"],
      paths: { "ls ~/.ssh": ["read:~/.ssh"] },
    },
  },
  stat: {
    summary: "show file status",
    options: [
      ...flags("-L --dereference", "-f --file-system", "-t --terse"),
      ...values("-c --format", "--printf", "--cached"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["stat -c %s f"], notReadOnly: ["stat -q f"], paths: { "stat /etc": ["read:/etc"] } },
  },
  du: {
    summary: "estimate file space usage",
    options: [
      ...flags("-0 --null", "-a --all", "--apparent-size", "-b --bytes", "-c --total", "-D --dereference-args"),
      ...flags("-H", "-h --human-readable", "--inodes", "-k", "-L --dereference", "-l --count-links", "-m"),
      ...flags("-P --no-dereference", "-S --separate-dirs", "--si", "-s --summarize", "-x --one-file-system"),
      ...values("-B --block-size", "-d --max-depth", "-t --threshold", "--time-style", "--exclude"),
      ...optionals("--time"),
      opt("--files0-from", { role: "read" }),
      opt("-X --exclude-from", { role: "read" }),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["du -sh .", "du -h --max-d=1"], notReadOnly: ["du -q"] },
  },
  df: {
    summary: "report file system disk space usage (operands only name a file system)",
    options: [
      ...flags("-a --all", "-h --human-readable", "-H --si", "-i --inodes", "-k", "-l --local", "--no-sync"),
      ...flags("-P --portability", "--sync", "--total", "-T --print-type", "-v"),
      ...values("-B --block-size", "-t --type", "-x --exclude-type"),
      ...optionals("--output"),
      ...HELP_VERSION,
    ],
    operands: NAMES,
    tests: { readOnly: ["df -h", "df -h /"], notReadOnly: ["df -q"] },
  },
  realpath: {
    summary: "print the resolved path",
    options: [
      ...flags("-e --canonicalize-existing", "-m --canonicalize-missing", "-L --logical", "-P --physical"),
      ...flags("-q --quiet", "-s --strip --no-symlinks", "-z --zero"),
      ...values("--relative-to", "--relative-base"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["realpath src/x.ts"], notReadOnly: ["realpath -j x"] },
  },
  readlink: {
    summary: "print the target of a symbolic link",
    options: [
      ...flags("-f --canonicalize", "-e --canonicalize-existing", "-m --canonicalize-missing"),
      ...flags("-n --no-newline", "-q --quiet", "-s --silent", "-v --verbose", "-z --zero"),
      ...HELP_VERSION,
    ],
    tests: { readOnly: ["readlink -f link"], notReadOnly: ["readlink -j link"] },
  },
  basename: {
    summary: "strip the directory and suffix from a name",
    options: [...flags("-a --multiple", "-z --zero"), ...values("-s --suffix"), ...HELP_VERSION],
    operands: NAMES,
    tests: { readOnly: ["basename /a/b.ts .ts"], notReadOnly: ["basename -j x"] },
  },
  dirname: {
    summary: "strip the last component from a name",
    options: [...flags("-z --zero"), ...HELP_VERSION],
    operands: NAMES,
    tests: { readOnly: ["dirname /a/b"], notReadOnly: ["dirname -j x"] },
  },
  file: {
    summary: "determine file type",
    options: [
      ...flags("-b --brief", "-c --checking-printout", "-i --mime", "--apple", "--extension", "--mime-type"),
      ...flags("--mime-encoding", "-k --keep-going", "-l --list", "-L --dereference", "-h --no-dereference"),
      ...flags("-n --no-buffer", "-N --no-pad", "-0 --print0", "-r --raw", "-s --special-files", "-d --debug"),
      ...flags("-S --no-sandbox", "-p --preserve-date", "-v --version", "--help"),
      ...values("-e --exclude", "--exclude-quiet", "-F --separator", "-P --parameter"),
      opt("-m --magic-file", { role: "read" }),
      opt("-f --files-from", { role: "read", why: "reads the list of files to examine" }),
      effect("-z --uncompress -Z --uncompress-noreport", "program", "runs decompression programs"),
      effect("-C --compile", "write", "writes a compiled magic file"),
    ],
    tests: {
      readOnly: ["file a.out", "file -b --mime-type x.png"],
      notReadOnly: ["file -z x.gz", "file -C -m magic"],
      paths: { "file -f list": ["read:list"] },
    },
  },
  tree: {
    summary: "list directories as a tree (tree 2.x: long options exact)",
    long: "exact",
    options: [
      ...flags("-a", "-d", "-l", "-f", "-x", "-q", "-N", "-Q", "-p", "-u", "-g", "-s", "-h", "--si", "--du"),
      ...flags("-D", "--inodes", "--device", "-F", "-v", "-t", "-c", "-U", "-r", "--dirsfirst", "--filesfirst"),
      ...flags("-i", "-A", "-S", "-n", "-C", "-X", "-J", "--noreport", "--prune", "--info", "--gitignore"),
      ...flags("--ignore-case", "--matchdirs", "--metafirst", "--nolinks", "--fflinks", "--version", "--help"),
      ...values("-L", "-P", "-I", "--charset", "--filelimit", "--timefmt", "--sort", "-H", "-T"),
      opt("--infofile", { role: "read" }),
      opt("--hintro", { role: "read" }),
      opt("--houtro", { role: "read" }),
      opt("-o", { role: "write", why: "writes the listing to this file" }),
      effect("-R", "write", "writes an index file into every directory (with -H and -o)"),
      effect("--fromfile", "plain"),
    ],
    tests: {
      readOnly: ["tree -L 2 src", "tree -a -I node_modules"],
      notReadOnly: ["tree -o out.txt", "tree --bogus"],
      paths: { "tree ~": ["read:~"] },
    },
  },
  xxd: {
    summary: "hex dump (vim's xxd: options are whole words)",
    long: "none",
    cluster: false,
    options: [
      ...flags("-a", "-b", "-C", "-E", "-e", "-h", "-i", "-p", "-ps", "-d", "-u", "-v"),
      ...values("-c", "-g", "-l", "-n", "-o", "-s"),
      effect("-r", "plain"),
    ],
    operands: [{ role: "read", optional: true }, { role: "write", optional: true }],
    tests: {
      readOnly: ["xxd a.bin", "xxd -l 64 a.bin"],
      notReadOnly: ["xxd a.bin out.hex", "xxd -r dump bin"],
    },
  },
  less: {
    summary: "page through files (less 590: long options by unique prefix)",
    options: [
      ...flags("-a --search-skip-screen", "-A --SEARCH-SKIP-SCREEN", "-B --auto-buffers", "-c --clear-screen"),
      ...flags("-C --CLEAR-SCREEN", "-d --dumb", "-e --quit-at-eof", "-E --QUIT-AT-EOF", "-f --force"),
      ...flags("-F --quit-if-one-screen", "-g --hilite-search", "-G --HILITE-SEARCH", "-i --ignore-case"),
      ...flags("-I --IGNORE-CASE", "-J --status-column", "-K --quit-on-intr", "-L --no-lessopen"),
      ...flags("-m --long-prompt", "-M --LONG-PROMPT", "-n --line-numbers", "-N --LINE-NUMBERS"),
      ...flags("-q --quiet --silent", "-Q --QUIET --SILENT", "-r --raw-control-chars", "-R --RAW-CONTROL-CHARS"),
      ...flags("-s --squeeze-blank-lines", "-S --chop-long-lines", "-u --underline-special"),
      ...flags("-U --UNDERLINE-SPECIAL", "-V --version", "-w --hilite-unread", "-W --HILITE-UNREAD"),
      ...flags("-X --no-init", "-~ --tilde", "--help", "--follow-name", "--incsearch", "--line-num-width"),
      ...flags("--mouse", "--MOUSE", "--no-keypad", "--no-histdups", "--save-marks", "--use-backslash"),
      ...flags("--no-number-headers", "--no-search-headers", "--redraw-on-quit", "--search-options"),
      ...flags("--exit-follow-on-close", "--no-vbell", "--status-line", "--use-color"),
      ...values("-b --buffers", "-h --max-back-scroll", "-j --jump-target", "-p --pattern", "-P --prompt"),
      ...values("-t --tag", "-x --tabs", "-y --max-forw-scroll", "-z --window", "-# --shift", "-D --color"),
      ...values("--header", "--intr", "--rscroll", "--status-col-width", "--wheel-lines", "--wordwrap"),
      opt("-T --tag-file", { role: "read" }),
      opt("-o --log-file -O --LOG-FILE", { role: "write", why: "copies its input to this file" }),
      opt("-k --lesskey-file --lesskey-src", {
        role: "program",
        why: "loads key bindings, which can run shell commands",
      }),
      opt("--lesskey-content", { role: "program", why: "loads key bindings, which can run shell commands" }),
    ],
    plus: { role: "code", why: "runs pager commands at start-up" },
    tests: {
      readOnly: ["less README.md", "less -N f"],
      notReadOnly: ["less -o /tmp/x f", "less --log-f=/tmp/x f", "less -k keys f", "less '+!id' f"],
    },
  },
  more: {
    summary: "page through files (util-linux)",
    long: "gnu",
    options: [
      ...flags("-d --silent", "-f --logical", "-l --no-pause", "-c --print-over", "-p --clean-print"),
      ...flags("-s --squeeze", "-u --plain", "-e --exit-on-eof", "-h --help", "-V --version"),
      ...values("-n --lines"),
    ],
    numberOption: true,
    plus: { role: "plain" },
    tests: { readOnly: ["more README.md", "more +10 f"], notReadOnly: ["more -q f"] },
  },
};
