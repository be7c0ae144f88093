import { describe, expect, test } from "bun:test";
import { blockedWrites, explainSandboxFailure } from "../../src/sandbox/explain.ts";
import { testProfile } from "./fixtures.ts";

const profile = testProfile("/w", { denyRead: ["/home/u/.ssh"] });
const explain = (output: string, extra: object = {}) =>
  explainSandboxFailure({ output, exitCode: 1, cwd: "/w", ...extra }, profile);

describe("explainSandboxFailure", () => {
  test("a credential location says it is hidden by default and how a person lets it through", () => {
    const withCredentials = { ...profile, hiddenCredentials: ["/home/u/.ssh"] };
    const text = explainSandboxFailure(
      { output: "cat: /home/u/.ssh/id_rsa: No such file or directory", exitCode: 1, cwd: "/w" },
      withCredentials,
    )!;
    // Masked by an empty directory, the key reads as missing.
    expect(text).toContain("/home/u/.ssh is a credential location the sandbox hides by default");
    expect(text).toContain("--allow-read /home/u/.ssh");
    expect(explain("cat: /w/nothing.txt: No such file or directory")).toBeNull();
  });
  test("a SIGKILL names the memory limit, and the wall-time limit when there is one", () => {
    const limits = { ...profile.limits, maxMemoryBytes: 512 * 1024 ** 2, maxWallSeconds: 30 };
    const text = explainSandboxFailure({ output: "", exitCode: 137, cwd: "/w" }, { ...profile, limits })!;
    expect(text).toContain("memory limit of 0.5 GiB or its wall-time limit of 30 s");
    expect(explain("", { exitCode: 137 })).not.toContain("wall-time");
  });
  test("SIGXCPU names the CPU limit; a full disk names the private temp dir's size", () => {
    const limits = { ...profile.limits, maxCpuSeconds: 5 };
    expect(explainSandboxFailure({ output: "", exitCode: 152, cwd: "/w" }, { ...profile, limits }))
      .toContain("CPU time of 5 s per process");
    expect(explain("head: error writing 'standard output': No space left on device"))
      .toContain("private temp dir holds 2 GiB (sandbox.limits.tmpSize)");
    expect(explain("", { exitCode: 2 })).toBeNull();
  });
  test("privateTmp: a path in the host's /tmp reads as missing inside: named as hidden, with the narrow exception", () => {
    const line = "sh: 1: cannot create /tmp/other/out.txt: Directory nonexistent (No such file or directory)";
    const privateTmp = { ...profile, privateTmp: true };
    const text = explainSandboxFailure({ output: line, exitCode: 1, cwd: "/w" }, privateTmp)!;
    expect(text).toContain("writing /tmp/other/out.txt was blocked");
    expect(text).toContain(
      "lies in the host's /tmp, which the sandbox replaces with an empty, read-only one",
    );
    expect(text).toContain("--allow-write /tmp/other/out.txt");
    expect(blockedWrites({ output: line, cwd: "/w" }, privateTmp)).toEqual(["/tmp/other/out.txt"]);
    // In a workspace under /tmp, what is missing is just missing.
    const inTmp = testProfile("/tmp/ws", { privateTmp: true });
    expect(
      explainSandboxFailure({
        output: "cat: /tmp/ws/x: No such file or directory",
        exitCode: 1,
        cwd: "/tmp/ws",
      }, inTmp),
    )
      .toBeNull();
  });
  test("by default the host's /tmp is visible: missing there is just missing, a write is read-only", () => {
    const missing =
      "sh: 1: cannot create /tmp/other/out.txt: Directory nonexistent (No such file or directory)";
    expect(explain(missing)).toBeNull();
    expect(blockedWrites({ output: missing, cwd: "/w" }, profile)).toEqual([]);
    const text = explain("touch: cannot touch '/tmp/out.txt': Read-only file system")!;
    expect(text).toContain("--allow-write /tmp/out.txt");
    expect(text).not.toContain("replaces");
  });
  test("a write outside the writable roots names the path and the narrow exception", () => {
    const text = explain("touch: cannot touch '/home/u/notes.txt': Read-only file system")!;
    expect(text).toContain("writing /home/u/notes.txt was blocked");
    expect(text).toContain("--allow-write /home/u/notes.txt");
    expect(text).toContain("rather than turning the sandbox off");
  });
  test("a protected path says it stays read-only and who can change it", () => {
    const text = explain("sh: 1: cannot create .git/hooks/pre-commit: Read-only file system")!;
    expect(text).toContain("/w/.git/hooks is a protected path");
    expect(text).toContain("outside the sandbox");
  });
  test("the program's own path in front of the message is not taken for the blocked path", () => {
    const text = explain("/usr/bin/bash: line 1: .git/hooks/pre-commit: Read-only file system")!;
    expect(text).toContain("/w/.git/hooks is a protected path");
    expect(text).not.toContain("/usr/bin/bash");
  });
  test("relative paths are resolved against the working directory", () => {
    expect(explain("bash: ../elsewhere/x: Read-only file system")).toContain(
      "writing /elsewhere/x was blocked",
    );
  });
  test("a read of a denied path says it is hidden", () => {
    expect(explain("cat: /home/u/.ssh/id_rsa: Permission denied")).toContain(
      "/home/u/.ssh is hidden by the sandbox",
    );
  });
  test("proxy denials name host and port and the allowNet exception", () => {
    const text = explain("", { denials: [{ host: "example.com", port: 443, via: "http" }] })!;
    expect(text).toContain("network access to example.com:443 was blocked");
    expect(text).toContain("--allow-net example.com");
  });
  test("name resolution failing without a proxy means the network is off", () => {
    expect(explain("curl: (6) Could not resolve host: example.com")).toContain(
      "the network is off inside the sandbox (example.com was not reachable)",
    );
  });
  test("a fork failure mentions the process cap", () => {
    expect(explain("bash: fork: retry: Resource temporarily unavailable")).toContain(
      "caps the number of processes",
    );
  });
  test("bwrap failing to set up says the command did not run", () => {
    expect(explain("bwrap: No permissions to creating new namespace")).toContain("the command did not run");
  });
  test("an ordinary failure is not blamed on the sandbox", () => {
    expect(explain("error: test failed: expected 1, got 2")).toBeNull();
    expect(explain("cp: cannot stat '/w/missing': No such file or directory")).toBeNull();
  });
  test("a write inside the workspace that failed for another reason is not blamed", () => {
    expect(explain("rm: cannot remove '/w/busy': Permission denied")).toBeNull();
  });
});

test("Node's recursive mkdir under a read-only directory (ENOENT) is a blocked write: npm's cache", () => {
  const profile = testProfile("/w");
  const output =
    "npm error enoent Invalid response body while trying to fetch https://registry.npmjs.org/x: " +
    "ENOENT: no such file or directory, mkdir '/home/u/.npm/_cacache'";
  expect(explainSandboxFailure({ output, exitCode: 1, cwd: "/w" }, profile)).toContain(
    "writing /home/u/.npm/_cacache was blocked: /home/u/.npm/_cacache is outside the writable directories",
  );
  expect(blockedWrites({ output, cwd: "/w" }, profile)).toEqual(["/home/u/.npm/_cacache"]);
  expect(explainSandboxFailure({ output, exitCode: 1, cwd: "/w" }, profile)).toContain(
    "It is a package manager's download cache: the opt-in preset @package-caches",
  );
  expect(explain("touch: cannot touch '/home/u/.npmrc': Read-only file system")).not.toContain(
    "@package-caches",
  );
  const inside = "ENOENT: no such file or directory, mkdir '/w/build/out'";
  expect(blockedWrites({ output: inside, cwd: "/w" }, profile)).toEqual([]);
});
