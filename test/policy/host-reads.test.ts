/**
 * Reads a "read-only" command does that its words do not spell out as paths, judged on the host.
 * Each hostile form was verified in real bash 5.2 with dummy secrets in a scratch home:
 * - bash lists the folder before a pattern's first wildcard: `echo ~/.ssh/*` printed
 *   `~/.ssh/id_rsa`, `echo ~/.*` the home's hidden names, `echo link/*` the names behind a link
 *   that leads out, `echo ../*` the parent's;
 * - a directory operand makes diff read its members: `diff dA dB` and `diff dA dB/k` printed the
 *   key behind the link dA/k, `diff e1 e2` printed e1/.env; `git diff --no-index e1 e2` printed
 *   e1/.env (it shows links as their target's name);
 * - kubectl against a fake API server printed the file named by `-o go-template-file=F`,
 *   `-o jsonpath-file=F`, `--template=F -o go-template-file`, the first line of
 *   `-o custom-columns-file=F`, and with `get -R -f .` the content of `.env.json` in a decode error;
 *   `-f URL` and a kustomization's remote resources (`-k`) were fetched.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Decision } from "../../src/policy/types.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

let box: Sandbox;

beforeAll(() => {
  box = sandbox();
  const home = (path: string, content: string) => box.write(join(box.home, path), content);
  home(".ssh/id_rsa", "FAKE-PRIVATE-KEY\n");
  home(".aws/credentials", "[default]\n");
  const outside = join(box.root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "notes"), "outside\n");
  const ws = (path: string, content: string) => box.write(join(box.cwd, path), content);
  symlinkSync(outside, join(box.cwd, "link"));
  mkdirSync(join(box.cwd, "dA"));
  symlinkSync(join(box.home, ".ssh/id_rsa"), join(box.cwd, "dA/k"));
  ws("dB/k", "other\n");
  ws("e1/.env", "API_KEY=one\n");
  ws("e2/.env", "API_KEY=two\n");
  ws("src/a.ts", "a\n");
  ws("lib/a.ts", "b\n");
  ws("a.txt", "a\n");
  ws("b.txt", "b\n");
  ws("manifests/pod.yaml", "kind: Pod\n");
  ws("cfg/.env.json", '{"API_KEY":"x"}\n');
  ws("tpl.gotmpl", "{{.metadata.name}}\n");
});

const check = (command: string): Promise<Decision> => bashDecision(box, command, { sandboxed: false });

async function expectAsks(command: string, reason: RegExp): Promise<void> {
  const d = await check(command);
  expect(d.decision, `${command}: ${d.reason}`).toBe("ask");
  expect(d.reason, command).toMatch(reason);
}

async function expectAllowed(command: string): Promise<void> {
  const d = await check(command);
  expect(d.decision, `${command}: ${d.reason}`).toBe("allow");
}

describe("a pattern lists the folder before its first wildcard, for every command", () => {
  test("secrets folders meet their Read rules", async () => {
    for (const command of ["echo ~/.ssh/*", 'printf "%s\\n" ~/.aws/*', "ls -d ~/.ssh/*", "true ~/.ssh/id*"]) {
      await expectAsks(command, /credentials/);
    }
  });
  test("folders outside the workspace, by tilde, parent, link or a wildcard in a folder name", async () => {
    for (
      const command of [
        "echo ~/.*",
        "echo ../*",
        "echo link/*",
        "echo ~/.ss?/*",
        "cd .. && echo *",
        "echo /etc/*",
      ]
    ) {
      await expectAsks(command, /outside the workspace/);
    }
  });
  test("patterns over the workspace still run", async () => {
    for (const command of ["echo *", "ls src/*.ts", "echo */*.ts", "wc -l src/*", "echo 'link/*'"]) {
      await expectAllowed(command);
    }
  });
});

describe("a directory operand of diff or git diff --no-index is a read of the tree", () => {
  test("a member that links out or is a secrets file asks", async () => {
    for (const command of ["diff dA dB/k", "diff dA dB", "diff -u dA dB", "diff dB/k dA"]) {
      await expectAsks(command, /credentials/);
    }
    for (
      const command of [
        "diff e1 e2",
        "diff -q e1 e2",
        "git diff --no-index e1 e2",
        "git diff --no-index e1 src",
      ]
    ) {
      await expectAsks(command, /secrets file/);
    }
  });
  test("files and clean trees still run; git diff --no-index does not follow links", async () => {
    for (
      const command of [
        "diff a.txt b.txt",
        "diff -u src lib",
        "diff --no-dereference dA dB",
        "git diff --no-index src lib",
        "git diff --no-index dA dB",
      ]
    ) {
      await expectAllowed(command);
    }
  });
});

describe("kubectl values that are files or URLs", () => {
  test("output formats that name a file read it", async () => {
    for (
      const command of [
        "kubectl get pods -o go-template-file=~/.aws/credentials",
        "kubectl get pods -o custom-columns-file=~/.aws/credentials",
        "kubectl get pods --output=TemplateFile=~/.ssh/id_rsa",
      ]
    ) {
      await expectAsks(command, /credentials/);
    }
    await expectAsks("kubectl get pods -o jsonpath-file=.env", /secrets file/);
    await expectAsks("kubectl get pods --template=.env -o go-template-file", /secrets file/);
    await expectAsks("kubectl get pods -o=jsonpath-file=../x", /outside the workspace/);
  });
  test("-f reads a directory whole; a URL or a kustomization reaches the network", async () => {
    await expectAsks("kubectl get -R -f .", /credentials|secrets file/);
    await expectAsks("kubectl get -R -f cfg", /secrets file/);
    await expectAsks("kubectl get -f cfg", /secrets file/);
    await expectAsks("kubectl get -f=../outside", /outside the workspace/);
    await expectAsks("kubectl get -f http://127.0.0.1:18766/x.yaml", /downloads the manifest/);
    await expectAsks("kubectl get -k .", /kustomization/);
  });
  test("files in the workspace and inline templates still run", async () => {
    for (
      const command of [
        "kubectl get pods",
        "kubectl get -f manifests/pod.yaml",
        "kubectl get -R -f manifests",
        "kubectl get pods -o go-template-file=tpl.gotmpl",
        "kubectl get pods -o jsonpath='{.items[*].metadata.name}'",
        "kubectl get pods -o go-template --template='{{range .items}}{{.metadata.name}}{{end}}'",
      ]
    ) {
      await expectAllowed(command);
    }
  });
});
