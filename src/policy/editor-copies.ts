/**
 * Editors leave copies of a file next to it that hold its contents: backups (`.env~`), autosaves
 * (`#.env#`), swap files (`.env.swp`, `.id_rsa.swp`). A deny or ask path rule holds for them as for
 * the file itself (`decide.ts`), so `Read(.env)` also asks before `cat .env~`.
 *
 * ```ts
 * originalsOf("/w/.env~");          // ["/w/.env"]
 * originalsOf("/w/.id_rsa.swp");    // ["/w/.id_rsa", "/w/id_rsa"]
 * originalsOf("/w/src/app.ts");     // []
 * ```
 */

/** One way an editor names its copy of NAME; `name` is the group holding NAME. */
export interface CopyForm {
  editor: string;
  form: RegExp;
  /** A copy and the file it is a copy of, checked by the tests. */
  example: readonly [copy: string, original: string];
}

/** Reviewed data: each form with an example the tests run. */
export const COPY_FORMS: readonly CopyForm[] = [
  { editor: "vim undo file (.NAME.un~)", form: /^\.(?<name>.+)\.un~$/, example: ["..netrc.un~", ".netrc"] },
  { editor: "backup (emacs, vim, gedit, joe: NAME~)", form: /^(?<name>.+)~$/, example: [".env~", ".env"] },
  { editor: "emacs autosave (#NAME#)", form: /^#(?<name>.+)#$/, example: ["#.env#", ".env"] },
  {
    // Vim adds a dot unless NAME has one: `.env` and `env` both swap to `.env.swp`.
    editor: "vim swap (.NAME.swp, .swo ... .swa; NAME.swp for a dot file)",
    form: /^\.?(?<name>.+)\.sw[a-p]$/,
    example: [".credentials.json.swp", "credentials.json"],
  },
  {
    editor: "kate swap (.NAME.kate-swp)",
    form: /^\.?(?<name>.+)\.kate-swp$/,
    example: [".pgpass.kate-swp", ".pgpass"],
  },
  {
    editor: "backups by hand and by tools (NAME.bak, .orig, .old, .save, .backup)",
    form: /^(?<name>.+)\.(?:bak|orig|old|save|backup)$/,
    example: ["credentials.json.bak", "credentials.json"],
  },
  {
    editor: "JetBrains safe write (NAME___jb_tmp___, NAME___jb_old___)",
    form: /^(?<name>.+)___jb_(?:tmp|old)___$/,
    example: ["id_rsa___jb_old___", "id_rsa"],
  },
];

/** Every deny and ask path rule asks about the same path in turn: the last answer is kept. */
let last: { path: string; originals: readonly string[] } = { path: "", originals: [] };

/** The files `path` may be an editor's copy of (same directory), or none. */
export function originalsOf(path: string): readonly string[] {
  if (last.path !== path) last = { path, originals: findOriginals(path) };
  return last.originals;
}

function findOriginals(path: string): string[] {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  const found = new Set<string>();
  for (const { form } of COPY_FORMS) {
    const name = form.exec(base)?.groups?.name;
    if (name === undefined) continue;
    found.add(dir + name);
    // A leading dot may be the editor's (vim swap of `id_rsa`) or the file's own (`.env.swp`).
    if (base.startsWith(".") && !name.startsWith(".")) found.add(`${dir}.${name}`);
  }
  return [...found];
}
