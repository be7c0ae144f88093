/** `*` wildcards as regular expressions; everything else matches literally. */

export function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}

/** The regex source of `pattern` with each `*` replaced by `star` (default: any characters). */
export function wildcardSource(pattern: string, star = ".*"): string {
  return pattern.split("*").map(escapeRegex).join(star);
}

/** A whole-string match of `pattern`, where `*` spans any characters (newlines too). */
export function wildcardRegex(pattern: string): RegExp {
  return new RegExp(`^${wildcardSource(pattern)}$`, "s");
}
