import { describe, expect, test } from "bun:test";
import { classifyToolError } from "../../src/exec/errors.ts";

describe("classifyToolError: telemetry-safe classes, never messages or paths", () => {
  test("errno codes win", () => {
    const error = Object.assign(new Error("ENOENT: no such file, open '/home/alice/.ssh/id_rsa'"), {
      code: "ENOENT",
    });
    expect(classifyToolError(error)).toBe("ENOENT");
  });
  test("otherwise the error's name", () => {
    expect(classifyToolError(new TypeError("x is not a function"))).toBe("TypeError");
    expect(classifyToolError(Object.assign(new Error("m"), { name: "SandboxRefusedError" }))).toBe(
      "SandboxRefusedError",
    );
  });
  test("codes and names that could carry data are not trusted", () => {
    expect(classifyToolError({ code: "/etc/passwd", name: "has space" })).toBe("UnknownError");
    expect(classifyToolError("a thrown string with a secret")).toBe("StringError");
    expect(classifyToolError(undefined)).toBe("UnknownError");
  });
});
