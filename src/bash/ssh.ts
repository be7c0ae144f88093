/**
 * ssh, scp and sftp options that make them run a local program. ssh reads each `-o` value as a
 * config line: the keyword is case-insensitive, may follow blanks, and is separated from its
 * value by `=` or blanks; `-o` may sit at the end of a cluster (`-voProxyCommand=x`) and after
 * the destination (`ssh host -o ...`).
 *
 * ```ts
 * sshRunsProgram("ssh", ["-vo", " proxycommand id", "host"]); // "ssh -o ProxyCommand runs a local program"
 * ```
 */

/** Config keywords whose value ssh runs or loads locally. */
const COMMAND_KEYWORDS = new Map(
  [
    "ProxyCommand",
    "LocalCommand",
    "KnownHostsCommand",
    "PKCS11Provider",
    "SecurityKeyProvider",
    "Match",
    "Include",
  ]
    .map((k) => [k.toLowerCase(), k]),
);
/** Short options that take a value, per program; the value is the rest of the word or the next one. */
export const VALUE_LETTERS: Readonly<Record<string, string>> = {
  ssh: "BbcDEeFIiJLlmOoPpQRSWw",
  scp: "cDFiJloPSX",
  sftp: "BbcDFiJloPRSsX",
};
/** Options whose value is itself a program or a config file that can name one. */
const PROGRAM_LETTERS: Record<string, string> = { ssh: "F", scp: "FS", sftp: "FSD" };

/** Why this ssh, scp or sftp invocation runs a local program, or undefined. */
export function sshRunsProgram(name: string, args: readonly string[]): string | undefined {
  const valued = VALUE_LETTERS[name];
  if (valued === undefined) return undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") break;
    // OpenSSH reads options after the destination too; a remote command's words are only over-read.
    if (!a.startsWith("-") || a === "-") continue;
    for (let j = 1; j < a.length; j++) {
      const letter = a[j]!;
      if (!valued.includes(letter)) continue;
      const value = j < a.length - 1 ? a.slice(j + 1) : args[++i] ?? "";
      if (letter === "o") {
        const keyword = COMMAND_KEYWORDS.get(value.trim().split(/[\s=]+/)[0]!.toLowerCase());
        if (keyword) return `${name} -o ${keyword} runs a local program`;
      }
      if (PROGRAM_LETTERS[name]!.includes(letter)) {
        return `${name} -${letter} names a program or config that runs one`;
      }
      break;
    }
  }
  return undefined;
}
