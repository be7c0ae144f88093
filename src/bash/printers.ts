/**
 * What a command prints when its output is fixed by its own words: `echo`, `printf` and `cat` of a
 * known standard input. Shell code hidden this way (`echo 'rm -rf ~' | sh`, `$(printf '\x72m')`,
 * `cat <<EOF | bash`) is then analyzed like the code it becomes. Anything not modelled exactly
 * gives undefined (the text stays unknown and the command asks).
 */
import type { RawCommand } from "./command.ts";
import { basename } from "./wrappers.ts";

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

/**
 * Backslash escapes as `printf`, `echo -e` and `$'...'` read them (`\x72`, `\162`, `\u0072`, `\n`);
 * `echo -e` and `%b` want a leading zero on octal (`\0162`).
 */
export function decodeEscapes(text: string, octalNeedsZero = false): string {
  const octal = octalNeedsZero ? "0[0-7]{0,3}" : "0?[0-7]{1,3}";
  const pattern = new RegExp(
    `\\\\(?:x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|(${octal})|([abeEfnrtv\\\\"']))`,
    "g",
  );
  return text.replace(pattern, (_, hex: string, u4: string, u8: string, oct: string, simple: string) => {
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    const code = u4 ?? u8;
    if (code) return String.fromCodePoint(Math.min(parseInt(code, 16), 0x10ffff));
    if (oct) return String.fromCharCode(parseInt(oct, 8) & 0xff);
    return SIMPLE_ESCAPES[simple] ?? "";
  });
}

/** `echo [-neE]... words`: bash's builtin (escapes only with -e). */
function echoOutput(args: string[]): string {
  let i = 0;
  let newline = true;
  let escapes = false;
  for (; i < args.length && /^-[neE]+$/.test(args[i]!); i++) {
    for (const flag of args[i]!.slice(1)) {
      if (flag === "n") newline = false;
      else escapes = flag === "e";
    }
  }
  const text = args.slice(i).join(" ");
  return (escapes ? decodeEscapes(text, true) : text) + (newline ? "\n" : "");
}

/** `printf FORMAT [args]` with %s, %b, %c and %%; other conversions are not modelled. */
function printfOutput(args: string[]): string | undefined {
  const [format, ...rest] = args;
  if (format === undefined || format === "-v" || format === "--") return undefined;
  const conversions = format.match(/%./g) ?? [];
  if (conversions.some((c) => !/^%[sbc%]$/.test(c))) return undefined;
  const consumes = conversions.filter((c) => c !== "%%").length;
  let out = "";
  let next = 0;
  // The format is reused until every argument is consumed, and printed at least once.
  do {
    out += decodeEscapes(format, false).replace(/%([sbc%])/g, (_, c: string) => {
      if (c === "%") return "%";
      const arg = rest[next++] ?? "";
      return c === "b" ? decodeEscapes(arg, true) : c === "c" ? arg.slice(0, 1) : arg;
    });
  } while (consumes > 0 && next < rest.length);
  return out;
}

/**
 * The exact output of `raw`, when its words are all known: echo, printf, or cat of a known
 * standard input with no file operands.
 */
export function literalOutput(raw: RawCommand): string | undefined {
  if (raw.words.some((w) => w.dynamic) || raw.subs.length > 0) return undefined;
  // Output sent elsewhere is not what the reader gets.
  if (raw.redirects.some((r) => r.op.includes(">"))) return undefined;
  const [name = "", ...args] = raw.words.map((w) => w.text);
  switch (basename(name)) {
    case "echo":
      return echoOutput(args);
    case "printf":
      return printfOutput(args);
    case "cat":
      return args.every((a) => a === "-") ? raw.stdin : undefined;
    default:
      return undefined;
  }
}
