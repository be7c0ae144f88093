/**
 * Which files a command reads or writes, for the commands that take paths. Policy compares these
 * with the workspace and the Read/Edit rules. Every extractor honours `--`.
 */
import type { TreeRead } from "./recursion.ts";
import { hasOption, type OptionSpec, optionValues, parseArgs } from "./options.ts";
import { sedAccess } from "./sed.ts";

export interface Access {
  path: string;
  access: "read" | "write";
  /** An unquoted pattern: judged by the files it matches. */
  glob?: boolean;
  /** The command reads the whole tree below this directory (`recursion.ts`). */
  tree?: TreeRead;
  /** Which file it is is known only when the command runs (`{}` of find, what xargs appends). */
  runtime?: boolean;
}

interface PathSpec extends OptionSpec {
  /** What the operands are. */
  access: "read" | "write";
  /** Leading operands that are not paths (a pattern, a mode, an owner). */
  skip?: number;
  /** When one of these options is given the leading operands are paths too (`grep -e P file`). */
  noSkipWith?: readonly string[];
  /** The last operand is written (cp, ln); `-t DIR` takes its place. */
  lastWrites?: boolean;
  /** Options whose values are files read or written. */
  reads?: readonly string[];
  writes?: readonly string[];
  /** Operand at this index (0-based) is written instead (uniq IN OUT, zip ARCHIVE FILES). */
  writeAt?: number;
}

type Extractor = (args: string[]) => Access[];

const read = (path: string): Access => ({ path, access: "read" });
const write = (path: string): Access => ({ path, access: "write" });

function fromSpec(spec: PathSpec): Extractor {
  return (args) => {
    const parsed = parseArgs(args, spec);
    const out: Access[] = [];
    for (const o of parsed.options) {
      if (o.value === undefined) continue;
      if (spec.reads?.includes(o.name)) out.push(read(o.value));
      if (spec.writes?.includes(o.name)) out.push(write(o.value));
    }
    const skipping = spec.skip && !spec.noSkipWith?.some((name) => hasOption(parsed, name));
    const operands = parsed.operands.slice(skipping ? spec.skip : 0);
    const target = spec.lastWrites && !hasOption(parsed, "-t", "--target-directory")
      ? operands.length - 1
      : -1;
    operands.forEach((path, i) => {
      out.push(i === target || i === spec.writeAt ? write(path) : { path, access: spec.access });
    });
    return out;
  };
}

const readsOnly = (short?: string, long?: readonly string[]) => fromSpec({ access: "read", short, long });
const writesOnly = (short?: string, long?: readonly string[]) => fromSpec({ access: "write", short, long });

const GREP: PathSpec = {
  access: "read",
  short: "efmABCDd",
  long: ["regexp", "file", "max-count", "after-context", "before-context", "context", "include", "exclude"],
  skip: 1,
  noSkipWith: ["-e", "-f", "--regexp", "--file"],
  reads: ["-f", "--file"],
};
const COPY: PathSpec = {
  access: "read",
  short: "tSm",
  long: ["target-directory", "suffix"],
  lastWrites: true,
  writes: ["-t", "--target-directory"],
};

const EXTRACTORS: Record<string, Extractor> = {
  cat: readsOnly(),
  head: readsOnly("nc", ["lines", "bytes"]),
  tail: readsOnly("ncs", ["lines", "bytes", "sleep-interval", "pid"]),
  less: (args) => readsOnly("bhjkoOpPtTxyz#")(args.filter((a) => !a.startsWith("+"))),
  more: (args) => readsOnly("n")(args.filter((a) => !a.startsWith("+"))),
  wc: readsOnly(),
  stat: readsOnly("c", ["format", "printf"]),
  file: fromSpec({ access: "read", short: "mfFeP", reads: ["-m", "-f"] }),
  ls: readsOnly("IwT", ["ignore", "hide", "width", "tabsize", "format", "sort", "time-style", "block-size"]),
  tree: fromSpec({ access: "read", short: "LPIo", writes: ["-o"] }),
  du: readsOnly("dBt", ["max-depth", "block-size", "threshold", "exclude"]),
  diff: readsOnly("UCFIxSX", ["label", "unified", "context"]),
  cmp: readsOnly("inl"),
  comm: readsOnly(),
  nl: readsOnly("bdfhilnsvw"),
  od: readsOnly("AjNSTtw"),
  strings: readsOnly("nte"),
  cut: readsOnly("bcdf", ["delimiter", "fields", "characters", "bytes", "output-delimiter"]),
  sort: fromSpec({
    access: "read",
    short: "kotST",
    long: ["key", "output", "field-separator", "buffer-size", "temporary-directory", "compress-program"],
    writes: ["-o", "--output"],
  }),
  uniq: fromSpec({ access: "read", short: "fsw", writeAt: 1 }),
  xxd: fromSpec({ access: "read", short: "cglsonC", writeAt: 1 }),
  base64: fromSpec({ access: "read", short: "wio", writes: ["-o", "--output"], reads: ["-i", "--input"] }),
  md5sum: readsOnly(),
  sha1sum: readsOnly(),
  sha256sum: readsOnly(),
  sha512sum: readsOnly(),
  readlink: readsOnly(),
  realpath: readsOnly(),
  grep: fromSpec(GREP),
  egrep: fromSpec(GREP),
  fgrep: fromSpec(GREP),
  rg: rgPaths,
  find: findPaths,
  sed: sedAccess,
  awk: awkPaths,
  gawk: awkPaths,
  jq: jqPaths,
  cd: cdPath,
  pushd: cdPath,
  rm: writesOnly(),
  rmdir: writesOnly(),
  mkdir: writesOnly("m", ["mode"]),
  touch: fromSpec({
    access: "write",
    short: "drt",
    long: ["date", "reference"],
    reads: ["-r", "--reference"],
  }),
  tee: writesOnly(),
  truncate: fromSpec({
    access: "write",
    short: "sr",
    long: ["size", "reference"],
    reads: ["-r", "--reference"],
  }),
  shred: writesOnly("ns", ["iterations", "size"]),
  cp: fromSpec(COPY),
  ln: fromSpec(COPY),
  install: fromSpec({ ...COPY, short: "tSmogb" }),
  mv: fromSpec({ ...COPY, access: "write" }),
  rsync: removingSources(
    fromSpec({ ...COPY, short: "eT", long: ["rsh", "temp-dir", "exclude", "include", "filter"] }),
    // popt takes a unique prefix; --remove-sent-files is the old name.
    (name) => name.startsWith("--remove-s"),
  ),
  chmod: fromSpec({ access: "write", skip: 1, noSkipWith: ["--reference"], reads: ["--reference"] }),
  chown: fromSpec({ access: "write", skip: 1, noSkipWith: ["--reference"], reads: ["--reference"] }),
  chgrp: fromSpec({ access: "write", skip: 1, noSkipWith: ["--reference"], reads: ["--reference"] }),
  zip: removingSources(
    fromSpec({ access: "read", short: "bnt", writeAt: 0 }),
    (name) => name === "-m" || name === "--move",
    { short: "bnt" },
  ),
  "7z": sevenZipPaths,
  "7za": sevenZipPaths,
  "7zr": sevenZipPaths,
  unzip: unzipPaths,
  tar: tarPaths,
  dd: (args) =>
    args.flatMap((a) =>
      a.startsWith("if=") ? [read(a.slice(3))] : a.startsWith("of=") ? [write(a.slice(3))] : []
    ),
  curl: curlPaths,
  wget: fromSpec({
    access: "read",
    short: "OoPia",
    long: [
      "output-document",
      "output-file",
      "directory-prefix",
      "input-file",
      "append-output",
      "post-file",
      "body-file",
    ],
    writes: ["-O", "--output-document", "-o", "--output-file", "-P", "--directory-prefix", "-a"],
    reads: ["-i", "--input-file", "--post-file", "--body-file"],
    skip: Infinity,
  }),
  scp: fromSpec({ access: "read", short: "cFiJloPS", lastWrites: true }),
};

const CURL: PathSpec = {
  access: "read",
  short: "oTKdHXuAeEwxrYyzCmF",
  long: [
    "output",
    "upload-file",
    "config",
    "data",
    "data-binary",
    "data-ascii",
    "data-raw",
    "data-urlencode",
    "json",
    "form",
    "form-string",
    "header",
    "request",
    "user",
    "cookie-jar",
  ],
  writes: ["-o", "--output", "--cookie-jar"],
  reads: ["-T", "--upload-file", "-K", "--config"],
  skip: Infinity,
};
/** Options whose `@file` (or `name@file`, `name=@file`, `name=<file`) value curl reads and sends. */
const CURL_SENDS = new Set([
  "-d",
  "--data",
  "--data-binary",
  "--data-ascii",
  "--data-urlencode",
  "--json",
  "-F",
  "--form",
]);

/** curl's files, including the ones it uploads: `-d @~/.ssh/id_rsa`, `-F f=@.env`, `-T file`. */
function curlPaths(args: string[]): Access[] {
  const sent = parseArgs(args, CURL).options.flatMap((o) => {
    if (!CURL_SENDS.has(o.name) || o.value === undefined) return [];
    const pattern = o.name === "--data-urlencode" ? /^[^=@]*@(.+)/ : /^(?:[^=@<]*=)?[@<]([^;]+)/;
    const path = pattern.exec(o.value)?.[1];
    return path && path !== "-" ? [read(path)] : [];
  });
  return [...fromSpec(CURL)(args), ...sent];
}

/** Commands whose path arguments are known. */
export const PATH_COMMANDS: readonly string[] = Object.keys(EXTRACTORS);

/** Files `name` touches when run with `args`; empty for commands without an extractor. */
export function extractPaths(name: string, args: string[]): Access[] {
  return EXTRACTORS[name]?.(args).filter((a) => a.path !== "") ?? [];
}

function rgPaths(args: string[]): Access[] {
  const spec: PathSpec = {
    access: "read",
    short: "efgmABCtTMjrE",
    long: [
      "regexp",
      "file",
      "glob",
      "iglob",
      "type",
      "type-not",
      "max-count",
      "after-context",
      "before-context",
      "context",
      "threads",
      "max-columns",
      "replace",
      "encoding",
      "pre",
      "pre-glob",
      "hostname-bin",
      "max-depth",
      "sort",
      "sortr",
      "type-add",
      "ignore-file",
      "colors",
      "max-filesize",
    ],
    skip: args.includes("--files") || args.includes("--type-list") ? 0 : 1,
    noSkipWith: ["-e", "-f", "--regexp", "--file"],
    reads: ["-f", "--file", "--ignore-file"],
  };
  return fromSpec(spec)(args);
}

const FIND_WRITES = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"]);

function findPaths(args: string[]): Access[] {
  const out: Access[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-D$|^-O\d$/.test(args[i]!)) i += args[i] === "-D" ? 2 : 1;
  // `find -- /etc`: GNU find ends its options with `--`; the roots follow.
  if (args[i] === "--") i++;
  const roots: string[] = [];
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith("-") || a === "(" || a === "!" || a === ")") break;
    roots.push(a);
  }
  const deletes = args.includes("-delete");
  for (const root of roots.length ? roots : ["."]) out.push(deletes ? write(root) : read(root));
  for (; i < args.length; i++) {
    if (FIND_WRITES.has(args[i]!) && args[i + 1] !== undefined) out.push(write(args[i + 1]!));
  }
  return out;
}

function awkPaths(args: string[]): Access[] {
  const parsed = parseArgs(args, { short: "fvF", long: ["file", "assign", "field-separator"] });
  const programs = optionValues(parsed, "-f", "--file");
  const operands = programs.length > 0 ? parsed.operands : parsed.operands.slice(1);
  return [...programs.map(read), ...operands.filter((o) => !/^[A-Za-z_]\w*=/.test(o)).map(read)];
}

function jqPaths(args: string[]): Access[] {
  const out: Access[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--arg" || a === "--argjson") i += 2;
    else if (a === "--slurpfile" || a === "--rawfile") {
      if (args[i + 2] !== undefined) out.push(read(args[i + 2]!));
      i += 2;
    } else if (a === "--args" || a === "--jsonargs") break;
    else rest.push(a);
  }
  const parsed = parseArgs(rest, { short: "fL", long: ["from-file", "indent", "library-path"] });
  const programs = optionValues(parsed, "-f", "--from-file");
  const operands = programs.length > 0 ? parsed.operands : parsed.operands.slice(1);
  return [...out, ...programs.map(read), ...operands.map(read)];
}

function cdPath(args: string[]): Access[] {
  const operands = parseArgs(args).operands;
  return [read(operands.length > 0 ? operands.join(" ") : "~")];
}

/**
 * An archiver or copier whose option (`removes` says which) deletes the sources once done
 * (`zip -m`, `rsync --remove-source-files`): what it read from is written too.
 */
function removingSources(
  extract: Extractor,
  removes: (name: string) => boolean,
  spec: OptionSpec = {},
): Extractor {
  return (args) => {
    const found = extract(args);
    if (!parseArgs(args, spec).options.some((o) => removes(o.name))) return found;
    return found.map((a) => (a.access === "read" ? { ...a, access: "write" } : a));
  };
}

/**
 * 7-Zip: `7z CMD [switches] ARCHIVE [FILES]`. `a`/`u`/`d` write the archive and read the files
 * (`-sdel` deletes them after); `x`/`e` write into `-oDIR` (or here); the rest read the archive.
 */
function sevenZipPaths(args: string[]): Access[] {
  const switches = args.filter((a) => a.startsWith("-"));
  const [command = "", archive, ...files] = args.filter((a) => !a.startsWith("-"));
  const out: Access[] = [];
  const writesArchive = ["a", "u", "d", "rn"].includes(command);
  if (archive) out.push(writesArchive ? write(archive) : read(archive));
  const deletes = switches.includes("-sdel");
  if (command === "a" || command === "u") out.push(...files.map((f) => (deletes ? write(f) : read(f))));
  if (command === "x" || command === "e") {
    out.push(write(switches.find((s) => s.startsWith("-o"))?.slice(2) || "."));
  }
  return out;
}

function unzipPaths(args: string[]): Access[] {
  const parsed = parseArgs(args, { short: "dxP" });
  // Operands after the archive name members inside it, not files on disk.
  const archive = parsed.operands[0];
  const out = archive ? [read(archive)] : [];
  const listing = hasOption(parsed, "-l", "-v", "-t", "-p", "-z", "-Z");
  if (!listing) out.push(write(optionValues(parsed, "-d")[0] ?? "."));
  return out;
}

function tarPaths(args: string[]): Access[] {
  const [first = "", ...rest] = args;
  // Old-style `tar czf a.tgz dir`: the first word is a cluster of letters without a dash.
  const normalized = /^[A-Za-z]+$/.test(first) ? [`-${first}`, ...rest] : args;
  const parsed = parseArgs(normalized, {
    short: "fCIFbHKLNgTVX",
    long: [
      "file",
      "directory",
      "use-compress-program",
      "files-from",
      "exclude-from",
      "to-command",
      "transform",
    ],
  });
  const archive = optionValues(parsed, "-f", "--file")[0];
  const dir = optionValues(parsed, "-C", "--directory")[0] ?? ".";
  // argp takes any unique prefix of --remove-files (--rem is the shortest).
  const removes = parsed.options.some((o) => o.name.length >= 5 && "--remove-files".startsWith(o.name));
  // Operands are taken from the -C directory.
  const operand = (path: string) => path.startsWith("/") || dir === "." ? path : `${dir}/${path}`;
  const letters = new Set(parsed.options.map((o) => o.name));
  const creates = ["-c", "-r", "-u", "-A", "--create", "--append", "--update"].some((f) => letters.has(f));
  const extracts = ["-x", "--extract", "--get"].some((f) => letters.has(f));
  const out: Access[] = [];
  if (archive) out.push(creates ? write(archive) : read(archive));
  if (extracts) out.push(write(dir));
  // --remove-files deletes each one once it is archived.
  if (creates) out.push(...parsed.operands.map((p) => removes ? write(operand(p)) : read(operand(p))));
  out.push(...optionValues(parsed, "-T", "--files-from", "-X", "--exclude-from").map(read));
  return out;
}
