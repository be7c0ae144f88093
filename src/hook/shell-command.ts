/** A shell command string from what a host sends: a string, or an argv array (Codex's `shell`). */

const SHELLS = /(?:^|\/)(?:bash|sh|zsh|dash)$/;
const SAFE_WORD = /^[A-Za-z0-9_./:@%+,=-]+$/;

/** `["bash","-lc","ls | head"]` → `ls | head`; other argv arrays are quoted word by word. */
export function commandText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || value.length === 0 || !value.every((w) => typeof w === "string")) {
    return undefined;
  }
  const argv = value as string[];
  if (argv.length === 3 && SHELLS.test(argv[0]!) && (argv[1] === "-c" || argv[1] === "-lc")) return argv[2];
  return argv.map(quoteWord).join(" ");
}

function quoteWord(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
