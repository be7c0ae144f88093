/**
 * Every entry of the default policy's two secrets lists, tried: a credential location in the home
 * (`secrets-home`) and a secrets file of the workspace (`secrets-files`) ask when the Read tool or a
 * Bash command reads them, on the host and in the sandbox (where "nothing allows it" would otherwise
 * let the command run). Names that only look alike keep being read without asking.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import defaultPolicy from "../../policy/default.json" with { type: "json" };
import { analyzerDeps, checkCall, withBashParser } from "../../src/cli/check-call.ts";
import { globalsFrom } from "../../src/cli/options.ts";
import { COPY_FORMS } from "../../src/policy/editor-copies.ts";
import { credentialPathOf } from "../../src/sandbox/credentials.ts";
import { bashDecision, type Sandbox, sandbox } from "./helpers.ts";

beforeAll(() => withBashParser());

const patternsOf = (id: string) => [defaultPolicy.rules.find((r) => r.id === id)!.match].flat() as string[];

async function readDecision(box: Sandbox, file_path: string) {
  const globals = { ...globalsFrom({ cwd: box.cwd, stateDir: box.stateDir }), color: false };
  return await checkCall("Read", { file_path }, box.load().policy, globals, analyzerDeps);
}

const verdict = (d: { decision: string; matched: { id?: string }[] }) =>
  `${d.decision} ${[...new Set(d.matched.map((m) => m.id))].join(",")}`;

describe("secrets-home: each credential location asks, for the Read tool and for cat on host and sandbox", () => {
  const box = sandbox();
  const entries = patternsOf("secrets-home").map((pattern) => {
    const path = credentialPathOf(pattern);
    const file = pattern.endsWith("/**)") ? `${path}/key` : path;
    return { pattern, file, real: file.startsWith("~/") ? join(box.home, file.slice(2)) : file };
  });
  beforeAll(() => {
    for (const { real } of entries.filter((e) => e.real.startsWith(box.home))) {
      mkdirSync(dirname(real), { recursive: true });
      writeFileSync(real, "token=FAKESECRET\n");
    }
  });
  for (const { pattern, file, real } of entries) {
    test(pattern, async () => {
      expect(`${file}: ${verdict(await readDecision(box, real))}`).toBe(`${file}: ask secrets-home`);
      const command = `cat '${real}'`;
      for (const sandboxed of [false, true]) {
        const decided = await bashDecision(box, command, { sandboxed });
        expect(`${command} (sandboxed: ${sandboxed}): ${verdict(decided)}`).toBe(
          `${command} (sandboxed: ${sandboxed}): ask secrets-home`,
        );
      }
    });
  }
  test("an editor's copy of a credential file asks too", async () => {
    for (const file of [".netrc~", ".pgpass.bak", ".my.cnf.swp", "#.git-credentials#", ".aws/credentials~"]) {
      const decided = await readDecision(box, join(box.home, file));
      expect(`${file}: ${verdict(decided)}`).toBe(`${file}: ask secrets-home`);
    }
  });
  test("a public key and the rest of the home are not on the list", async () => {
    mkdirSync(join(box.home, ".ssh"), { recursive: true });
    writeFileSync(join(box.home, ".ssh/id_ed25519.pub"), "ssh-ed25519 AAAA\n");
    writeFileSync(join(box.home, ".bashrc"), "alias ll='ls -l'\n");
    for (const file of [".ssh/id_ed25519.pub", ".bashrc", ".cache/huggingface/hub/model.bin"]) {
      const decided = await readDecision(box, join(box.home, file));
      expect(`${file}: ${decided.matched.some((m) => m.id === "secrets-home")}`).toBe(`${file}: false`);
    }
  });
});

/**
 * Example files per pattern of `secrets-files`: each must ask. A pattern without an example here
 * fails the first test, so a new entry comes with its case.
 */
const SECRETS_FILE_EXAMPLES: Record<string, string[]> = {
  "Read(.env)": [".env", "app/.env"],
  "Read(.env.*)": [".env.local", ".env.production", ".env.swp", ".env.bak"],
  "Read(*.env)": ["prod.env", "deploy/secrets.env"],
  "Read(.envrc)": [".envrc"],
  "Read(.envrc.*)": [".envrc.local", ".envrc.swp"],
  "Read(.dev.vars)": [".dev.vars", "worker/.dev.vars"],
  "Read(.dev.vars.*)": [".dev.vars.staging"],
  "Read(.secrets)": [".secrets"],
  "Read(.npmrc)": [".npmrc", "packages/a/.npmrc"],
  "Read(.yarnrc.yml)": [".yarnrc.yml"],
  "Read(.pypirc)": [".pypirc"],
  "Read(.netrc)": [".netrc"],
  "Read(_netrc)": ["_netrc"],
  "Read(.git-credentials)": [".git-credentials"],
  "Read(.pgpass)": [".pgpass"],
  "Read(.my.cnf)": [".my.cnf"],
  "Read(.s3cfg)": [".s3cfg"],
  "Read(.boto)": [".boto"],
  "Read(.vault-token)": [".vault-token"],
  "Read(.htpasswd)": [".htpasswd", "public/.htpasswd"],
  "Read(.aws/**)": [".aws/credentials", "infra/.aws/config"],
  "Read(.kube/**)": [".kube/config"],
  "Read(.docker/config.json)": [".docker/config.json"],
  "Read(.ssh/**)": [".ssh/id_rsa", ".ssh/config"],
  "Read(.gnupg/**)": [".gnupg/private-keys-v1.d/k.key"],
  "Read(credentials.json)": ["credentials.json", "config/credentials.json"],
  "Read(client_secret*.json)": ["client_secret_123.apps.googleusercontent.com.json"],
  "Read(service-account*.json)": ["service-account.json", "service-account-prod.json"],
  "Read(service_account*.json)": ["service_account.json"],
  "Read(serviceaccount*.json)": ["serviceAccountKey.json"],
  "Read(kaggle.json)": ["kaggle.json"],
  "Read(secrets.yaml)": ["secrets.yaml", "helm/secrets.yaml"],
  "Read(secrets.yml)": ["config/secrets.yml"],
  "Read(secrets.json)": ["secrets.json"],
  "Read(secrets.toml)": [".streamlit/secrets.toml"],
  "Read(*.tfvars)": ["terraform.tfvars", "prod.auto.tfvars"],
  "Read(*.tfvars.json)": ["terraform.tfvars.json"],
  "Read(*.tfstate)": ["terraform.tfstate"],
  "Read(*.tfstate.*)": ["terraform.tfstate.backup"],
  "Read(*.pem)": ["server.pem"],
  "Read(*.key)": ["config/master.key"],
  "Read(*.p12)": ["cert.p12"],
  "Read(*.pfx)": ["cert.pfx"],
  "Read(*.ppk)": ["putty.ppk"],
  "Read(*.jks)": ["release.jks"],
  "Read(*.keystore)": ["android/app/release.keystore"],
  "Read(id_rsa)": ["id_rsa", "deploy/id_rsa"],
  "Read(id_ed25519)": ["id_ed25519"],
  "Read(id_ecdsa)": ["id_ecdsa"],
  "Read(id_dsa)": ["id_dsa"],
  "Read(id_ed25519_sk)": ["id_ed25519_sk"],
  "Read(id_ecdsa_sk)": ["id_ecdsa_sk"],
};

/** Look-alikes read in everyday work: none may ask. */
const NOT_SECRETS = [
  "src/env.ts",
  "src/env.ts~",
  "#README.md#",
  "environment.yml",
  ".env.example",
  "app/.env.sample",
  ".envrc.example",
  ".dev.vars.example",
  "src/secrets.ts",
  "src/credentials.ts",
  "docs/credentials.md",
  "main.tf",
  "variables.tf",
  "terraform.tfvars.example",
  "deploy/id_rsa.pub",
  "keys.json",
  "package.json",
  ".yarnrc",
  "src/netrc.go",
];

describe("secrets-files: each pattern asks for its examples, on the host and in the sandbox", () => {
  const box = sandbox();
  beforeAll(() => {
    for (const file of [...Object.values(SECRETS_FILE_EXAMPLES).flat(), ...NOT_SECRETS]) {
      mkdirSync(dirname(join(box.cwd, file)), { recursive: true });
      writeFileSync(join(box.cwd, file), "API_KEY=fakesecret\n");
    }
  });
  test("every pattern of the rule has examples", () => {
    expect(patternsOf("secrets-files").filter((p) => !(p in SECRETS_FILE_EXAMPLES))).toEqual([]);
  });
  for (const [pattern, files] of Object.entries(SECRETS_FILE_EXAMPLES)) {
    test(pattern, async () => {
      for (const file of files) {
        expect(`${file}: ${(await readDecision(box, file)).decision}`).toBe(`${file}: ask`);
        const command = `cat '${file}'`;
        for (const sandboxed of [false, true]) {
          const decided = await bashDecision(box, command, { sandboxed });
          expect(`${command} (sandboxed: ${sandboxed}): ${verdict(decided)}`).toBe(
            `${command} (sandboxed: ${sandboxed}): ask secrets-files`,
          );
        }
      }
    });
  }
  test("an editor's copy of each, in every form, asks too", async () => {
    for (const [pattern, [file]] of Object.entries(SECRETS_FILE_EXAMPLES)) {
      const dir = file!.includes("/") ? file!.slice(0, file!.lastIndexOf("/") + 1) : "";
      const name = file!.slice(dir.length);
      for (const { example: [copy, original] } of COPY_FORMS) {
        const path = dir + copy.replace(original, name);
        const decided = await bashDecision(box, `cat '${path}'`, { sandboxed: true });
        expect(`${pattern}: cat ${path}: ${verdict(decided)}`).toBe(
          `${pattern}: cat ${path}: ask secrets-files`,
        );
      }
    }
  });
  test("look-alikes are read without asking", async () => {
    for (const file of NOT_SECRETS) {
      expect(`${file}: ${(await readDecision(box, file)).decision}`).toBe(`${file}: allow`);
      expect(`cat ${file}: ${(await bashDecision(box, `cat '${file}'`, { sandboxed: false })).decision}`)
        .toBe(
          `cat ${file}: allow`,
        );
    }
  });
});
