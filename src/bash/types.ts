/** What the Bash analyzer tells the rest of toolrt. Field names follow `toolrt analyze --json`. */

export type ParseOutcome = "simple" | "too-complex" | "parse-unavailable";

export interface Redirect {
  op: string;
  target: string;
}

export interface SimpleCommand {
  argv: string[];
  env: Record<string, string>;
  redirects: Redirect[];
  /**
   * The command as permission rules see it: wrappers (timeout, nice, ...) and safe env assignments
   * stripped, words joined by single spaces. `Bash(git commit:*)` is matched against this.
   */
  ruleText: string;
  /** An assignment of a variable not on the safe list: no allow rule may cover this command. */
  hasUnsafeEnv: boolean;
  /** Why no prefix allow rule may cover this command (e.g. `find -exec`), empty when none. */
  noAutoAllow: string[];
}

export interface CheckHit {
  id: number;
  name: string;
  message: string;
}

export interface PathAccess {
  command: string;
  path: string;
  access: "read" | "write";
}

export interface BashAnalysis {
  command: string;
  parse: ParseOutcome;
  commands: SimpleCommand[];
  checks: CheckHit[];
  readOnly: boolean;
  classification: "search" | "read" | "list" | "other";
  warnings: string[];
  prefix: string | null;
  suggestions: string[];
  paths: PathAccess[];
}
