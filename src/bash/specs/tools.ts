/**
 * Programmable filters and archives: GNU sed 4.9, awk (POSIX, gawk 5 long options, mawk -W),
 * jq 1.6 (long options exact), GNU tar 1.34 (argp; old-style `tar tzf`), Info-ZIP unzip/zipinfo.
 * Scripts, programs and filters given inline are judged by their checkers (`spec-values.ts`).
 */
import type { CommandSpec, SpecFamily } from "../spec.ts";
import { effect, flags, HELP_VERSION, opt, optionals, values } from "./build.ts";

const AWK_RUNS = "runs an awk program file that cannot be checked";

const AWK: CommandSpec = {
  summary: "pattern scanning and processing (POSIX awk, gawk and mawk options)",
  options: [
    ...values("-F --field-separator", "-v --assign"),
    opt("-f --file", { role: "program", codeFile: true, fills: "program", why: AWK_RUNS }),
    opt("-e --source", { role: "code", check: "awk", fills: "program" }),
    opt("-i --include -E --exec", { role: "program", codeFile: true, why: AWK_RUNS }),
    opt("-l --load", { role: "program", why: "loads a shared library into awk" }),
    opt("-W", { role: "unchecked", why: "is a mawk option word (one of them runs a program file)" }),
    ...flags("-S --sandbox", "-P --posix", "-c --traditional", "-r --re-interval", "-b --characters-as-bytes"),
    ...flags("-h --help", "-V --version", "-C --copyright", "-O --optimize", "-s --no-optimize"),
    ...flags("-g --gen-pot", "-n --non-decimal-data", "-M --bignum", "-N --use-lc-numeric", "-k --csv"),
    ...flags("-I --trace"),
    ...optionals("-L --lint"),
    { names: ["-d", "--dump-variables", "-o", "--pretty-print", "-p", "--profile"], arg: "optional", role: "write" },
    { names: ["-D", "--debug"], arg: "optional", role: "program", why: "runs awk's debugger, which reads commands" },
  ],
  permute: false,
  operands: [
    { name: "program", role: "code", check: "awk" },
    { name: "files", role: "read", optional: true, repeat: true },
  ],
  tests: {
    readOnly: ["awk '{print $1}' f", "awk -F, '$3 > 10 {print $2}' data.csv", "awk 'NR==1' f"],
    notReadOnly: [
      "awk 'BEGIN{system(\"id\")}'",
      "awk '{print > \"/tmp/x\"}' f",
      "awk 'BEGIN{print ENVIRON[\"HOME\"]}'",
      "awk -f prog.awk f",
      "awk '{print | \"sh\"}' f",
    ],
    paths: { "awk '{print}' /etc/passwd": ["read:/etc/passwd"] },
  },
};

const SED_FILE = "runs a sed script file that cannot be checked";

export const TOOLS: SpecFamily = {
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
  sed: {
    summary: "stream editor",
    options: [
      ...flags("-n --quiet --silent", "--debug", "--follow-symlinks", "--posix", "-E -r --regexp-extended"),
      ...flags("-s --separate", "--sandbox", "-u --unbuffered", "-z --null-data", ...HELP_VERSION.map((o) => o.names[0]!)),
      ...values("-l --line-length"),
      opt("-e --expression", { role: "code", check: "sed", fills: "script" }),
      opt("-f --file", { role: "program", codeFile: true, fills: "script", why: SED_FILE }),
      { names: ["-i", "--in-place"], arg: "optional", changes: { files: "write" } },
    ],
    operands: [
      { name: "script", role: "code", check: "sed" },
      { name: "files", role: "read", optional: true, repeat: true },
    ],
    tests: {
      readOnly: ["sed -n '1,10p' f", "sed 's/a/b/g' f", "sed -e 's/a/b/' -e 's/c/d/' f"],
      notReadOnly: ["sed -i 's/a/b/' f", "sed --in-pl 's/a/b/' f", "sed 's/a/b/w /tmp/x' f", "sed -f s.sed f"],
      paths: { "sed -i s/a/b/ /etc/hosts": ["write:/etc/hosts"], "sed -n p ~/.netrc": ["read:~/.netrc"] },
    },
  },
  jq: {
    summary: "JSON processor (jq 1.6: long options exact)",
    long: "exact",
    options: [
      ...flags("-c --compact-output", "-n --null-input", "-e --exit-status", "-s --slurp", "-r --raw-output"),
      ...flags("-j --join-output", "-a --ascii-output", "-R --raw-input", "-C --color-output"),
      ...flags("-M --monochrome-output", "-S --sort-keys", "--tab", "--seq", "--stream", "--unbuffered"),
      ...flags("-0 --nul-output", "--raw-output0", "-h --help", "-V --version", "--debug-dump-disasm"),
      ...flags("--debug-trace"),
      ...values("--indent"),
      { names: ["--arg", "--argjson"], values: ["plain", "plain"] },
      { names: ["--slurpfile", "--rawfile"], values: ["plain", "read"] },
      { names: ["--args", "--jsonargs"], changes: { files: "plain" } },
      opt("-f --from-file", { role: "read", codeFile: true, fills: "filter" }),
      opt("-L --library-path", { role: "unchecked", why: "loads modules from this directory" }),
      effect("--run-tests", "unchecked", "runs jq tests from a file"),
    ],
    operands: [
      { name: "filter", role: "code", check: "jq" },
      { name: "files", role: "read", optional: true, repeat: true },
    ],
    tests: {
      readOnly: ["jq .name package.json", "jq -r '.[] | .id' a.json", "jq --arg x 1 '.a == $x' f.json"],
      notReadOnly: ["jq env", "jq -n '$ENV.AWS_SECRET_ACCESS_KEY'", "jq -f prog.jq f", "jq --bogus . f"],
      paths: {
        "jq . ~/.docker/config.json": ["read:~/.docker/config.json"],
        "jq --rawfile k /etc/shadow -n '$k'": ["read:/etc/shadow"],
      },
    },
  },
  tar: tarSpec(),
  unzip: {
    summary: "list, test or extract zip archives (Info-ZIP; extraction writes)",
    long: "none",
    effect: "write",
    effectWhy: "extracts files",
    options: [
      ...flags("-l", "-v", "-t", "-z", "-Z", "-p", "-c").map((o) => ({ ...o, readMode: true })),
      ...flags("-f", "-u", "-o", "-n", "-q", "-j", "-C", "-a", "-b", "-L", "-V", "-X", "-K", "-M", "-T", "-D"),
      ...flags("-U", "-W", "-s", "-1", "-2", "-m", "-h"),
      ...values("-P", "-O", "-I"),
      opt("-d", { role: "write" }),
      { names: ["-x"], until: [], role: "plain" },
    ],
    operands: [{ role: "read" }, { role: "plain", optional: true, repeat: true }],
    tests: { readOnly: ["unzip -l a.zip", "unzip -t a.zip"], notReadOnly: ["unzip a.zip", "unzip -d /tmp/x a.zip"] },
  },
  zipinfo: {
    summary: "list zip archives",
    long: "none",
    options: [
      ...flags("-1", "-2", "-s", "-m", "-l", "-v", "-h", "-M", "-t", "-T", "-z", "-C", "-U"),
      ...values("-O", "-I"),
      { names: ["-x"], until: [], role: "plain" },
    ],
    operands: [{ role: "read" }, { role: "plain", optional: true, repeat: true }],
    tests: { readOnly: ["zipinfo a.zip"], notReadOnly: ["zipinfo -q a.zip"] },
  },
};

function tarSpec(): CommandSpec {
  const program = (names: string, why: string) => opt(names, { role: "program", why });
  return {
    summary: "archives (GNU tar: argp, long options by unique prefix; `tar tzf` old style)",
    oldStyleFirstWord: true,
    effect: "write",
    effectWhy: "creates, changes or extracts archives",
    options: [
      { names: ["-t", "--list"], readMode: true },
      { names: ["-d", "--diff", "--compare"], readMode: true },
      { names: ["--test-label"], readMode: true },
      { names: ["-c", "--create"], role: "write", changes: { "-f": "write", members: "read" } },
      { names: ["-r", "--append", "-u", "--update"], role: "write", changes: { "-f": "write", members: "read" } },
      { names: ["-A", "--catenate", "--concatenate"], role: "write", changes: { "-f": "write", members: "read" } },
      { names: ["--delete"], role: "write", changes: { "-f": "write" } },
      { names: ["-x", "--extract", "--get"], role: "write", changes: { "-C": "write" } },
      opt("-f --file", { role: "read" }),
      opt("-C --directory", { role: "read" }),
      opt("-T --files-from", { role: "read" }),
      opt("-X --exclude-from", { role: "read" }),
      opt("--add-file", { role: "read" }),
      opt("--group-map", { role: "read" }),
      opt("--owner-map", { role: "read" }),
      opt("-g --listed-incremental", { role: "write", why: "updates the snapshot file" }),
      opt("--index-file", { role: "write" }),
      opt("--volno-file", { role: "write" }),
      program("--to-command", "pipes every extracted file to this command"),
      program("-I --use-compress-program", "compresses through this program"),
      program("-F --info-script --new-volume-script", "runs this script at the end of each volume"),
      program("--rsh-command", "reaches a remote archive through this command"),
      program("--rmt-command", "runs this command as the remote tape server"),
      program("--checkpoint-action", "runs actions (exec=COMMAND among them) at checkpoints"),
      effect("--remove-files", "write", "removes files after adding them"),
      ...flags("--check-device", "-G --incremental", "--ignore-failed-read", "--no-check-device", "--no-seek"),
      ...flags("-n --seek", "-S --sparse", "--exclude-backups", "--exclude-caches", "--exclude-caches-all"),
      ...flags("--exclude-caches-under", "--exclude-vcs", "--exclude-vcs-ignores", "--no-null", "--no-recursion"),
      ...flags("--no-unquote", "--no-verbatim-files-from", "--null", "--recursion", "--unquote"),
      ...flags("--verbatim-files-from", "--anchored", "--ignore-case", "--no-anchored", "--no-ignore-case"),
      ...flags("--no-wildcards", "--no-wildcards-match-slash", "--wildcards", "--wildcards-match-slash"),
      ...flags("--keep-directory-symlink", "--keep-newer-files", "-k --keep-old-files", "--no-overwrite-dir"),
      ...flags("--overwrite", "--overwrite-dir", "--recursive-unlink", "--skip-old-files", "-U --unlink-first"),
      ...flags("-W --verify", "--ignore-command-error", "--no-ignore-command-error", "-O --to-stdout"),
      ...flags("--clamp-mtime", "--delay-directory-restore", "-m --touch", "--no-delay-directory-restore"),
      ...flags("--no-same-owner", "--no-same-permissions", "--numeric-owner"),
      ...flags("-p --preserve-permissions --same-permissions", "--same-owner", "-s --preserve-order --same-order"),
      ...flags("--acls", "--no-acls", "--no-selinux", "--no-xattrs", "--selinux", "--xattrs", "--force-local"),
      ...flags("-M --multi-volume", "-B --read-full-records", "-i --ignore-zeros", "--old-archive --portability"),
      ...flags("--posix", "-a --auto-compress", "-j --bzip2", "-J --xz", "--lzip", "--lzma", "--lzop"),
      ...flags("--no-auto-compress", "--zstd", "-z --gzip --gunzip --ungzip", "-Z --compress --uncompress"),
      ...flags("--hard-dereference", "-h --dereference", "--one-file-system", "-P --absolute-names"),
      ...flags("--full-time", "-l --check-links", "-R --block-number", "--show-defaults", "--show-omitted-dirs"),
      ...flags("--show-snapshot-field-ranges", "--show-transformed-names --show-stored-names", "--utc"),
      ...flags("-v --verbose", "-w --interactive --confirmation", "-o", "--restrict", "--usage", "-? --help"),
      ...flags("--version"),
      ...values("--hole-detection", "--level", "--sparse-version", "--exclude", "--group", "--mode", "--owner"),
      ...values("--sort", "--xattrs-exclude", "--xattrs-include", "-L --tape-length", "-b --blocking-factor"),
      ...values("--record-size", "-H --format", "--pax-option", "-V --label", "-K --starting-file"),
      ...values("--newer-mtime", "--suffix", "--strip-components", "--transform --xform", "--no-quote-chars"),
      ...values("--quote-chars", "--quoting-style", "--warning", "--exclude-ignore", "--exclude-ignore-recursive"),
      ...values("--exclude-tag", "--exclude-tag-all", "--exclude-tag-under", "--mtime", "-N --newer --after-date"),
      ...optionals("--occurrence", "--atime-preserve", "--backup", "--checkpoint", "--totals", "--one-top-level"),
    ],
    operands: [{ name: "members", role: "plain", optional: true, repeat: true }],
    tests: {
      readOnly: ["tar -tzf a.tgz", "tar tvf a.tar", "tar --list --file=a.tar"],
      notReadOnly: ["tar -xzf a.tgz", "tar czf out.tgz src", "tar -tf a.tar --to-command=sh", "tar -tf a.tar -I sh"],
      paths: { "tar -czf /tmp/o.tgz src": ["write:/tmp/o.tgz", "read:src"], "tar -tf ~/x.tar": ["read:~/x.tar"] },
    },
  };
}
