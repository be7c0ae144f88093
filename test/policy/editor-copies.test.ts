/** Each form of editor copy in the data names its original; other names name none. */
import { describe, expect, test } from "bun:test";
import { COPY_FORMS, originalsOf } from "../../src/policy/editor-copies.ts";

describe("editor copies", () => {
  for (const { editor, example: [copy, original] } of COPY_FORMS) {
    test(`${editor}: ${copy} is a copy of ${original}`, () => {
      expect(originalsOf(`/w/${copy}`)).toContain(`/w/${original}`);
      expect(originalsOf(copy)).toContain(original);
    });
  }
  test("a dot file's swap keeps its one dot; a plain file's gains one", () => {
    expect(originalsOf("/w/.env.swp")).toContain("/w/.env");
    expect(originalsOf("/w/.id_rsa.swo")).toContain("/w/id_rsa");
  });
  test("names that are no editor's copy have no original", () => {
    for (const name of ["app.ts", ".env", "~", "#", "a#b", ".swp", "notes.backups", "x.swz"]) {
      expect(`${name}: ${originalsOf(`/w/${name}`).join(",")}`).toBe(`${name}: `);
    }
  });
});
