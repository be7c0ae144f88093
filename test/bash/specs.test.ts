/**
 * One test per spec entry (src/bash/specs/): its own examples, plus checks generated from the data:
 * an unknown option is refused, every long option that writes or runs is caught when abbreviated,
 * and operands with a read role are reported as paths.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";
import type { CommandSpec, OptionSpec } from "../../src/bash/spec.ts";
import { FAMILIES } from "../../src/bash/specs/index.ts";

beforeAll(() => loadBashParser());

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Long options whose giving is not read-only, with the shortest prefix unique among the level's options. */
function abbreviations(spec: CommandSpec): { option: OptionSpec; word: string }[] {
  if ((spec.long ?? "gnu") !== "gnu") return [];
  const longs = (spec.options ?? []).flatMap((o) =>
    o.names.filter((n) => n.startsWith("--")).map((n) => ({ o, n }))
  );
  const out: { option: OptionSpec; word: string }[] = [];
  for (const { o, n } of longs) {
    const roles = [o.role ?? "plain", ...(o.values ?? [])];
    if (!roles.some((r) => r === "write" || r === "program" || r === "code") || o.check) continue;
    for (let len = 3; len < n.length; len++) {
      const prefix = n.slice(0, len);
      const owners = new Set(longs.filter((l) => l.n.startsWith(prefix)).map((l) => l.o));
      if (owners.size === 1) {
        out.push({ option: o, word: prefix });
        break;
      }
    }
  }
  return out;
}

for (const [family, specs] of Object.entries(FAMILIES)) {
  describe(`specs: ${family}`, () => {
    for (const [name, spec] of Object.entries(specs)) {
      test(name, async () => {
        for (const c of spec.tests?.readOnly ?? []) expect((await analyzeBash(c)).readOnly, c).toBe(true);
        for (const c of spec.tests?.notReadOnly ?? []) expect((await analyzeBash(c)).readOnly, c).toBe(false);
        for (const [c, want] of Object.entries(spec.tests?.paths ?? {})) {
          const got = (await analyzeBash(c)).paths.map((p) => `${p.access}:${p.path}`);
          for (const w of want) expect(got, c).toContain(w);
        }
        if (!spec.unknownOptionsAreOperands && (spec.long ?? "gnu") !== "none") {
          const c = `${quote(name)} --zz-no-such-option x`;
          expect((await analyzeBash(c)).readOnly, c).toBe(false);
        }
        for (const { option, word } of abbreviations(spec)) {
          const c = `${quote(name)} ${
            option.arg === "none" || option.arg === undefined ? word : `${word}=/tmp/x`
          } f`;
          expect((await analyzeBash(c)).readOnly, `${c} (${option.names.join(" ")})`).toBe(false);
        }
        const reads = (spec.operands ?? [{ role: "read" }]).some((s) => s.role === "read") &&
          !spec.subcommands;
        if (reads && spec.operands?.[0]?.role === "read") {
          const c = `${quote(name)} /etc/zz-probe`;
          const paths = (await analyzeBash(c)).paths.map((p) => p.path);
          expect(paths, c).toContain("/etc/zz-probe");
        }
      });
    }
  });
}
