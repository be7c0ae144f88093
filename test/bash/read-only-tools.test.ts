import { beforeAll, describe, expect, test } from "bun:test";
import { analyzeBash } from "../../src/bash/analyze.ts";
import { loadBashParser } from "../../src/bash/parser.ts";

beforeAll(() => loadBashParser());

const readOnly = async (command: string) => (await analyzeBash(command)).readOnly;

describe("developer tools' read-only subcommands", () => {
  const reads = [
    "docker ps -a",
    "docker logs web",
    "docker inspect web",
    "helm version",
    "gh help",
    "go env",
    "go version",
    // Reads of the service the user's configuration names: what these subcommands are for.
    "kubectl get pods -n prod",
    "kubectl describe deployment api",
    "kubectl logs api-123",
    "kubectl -n prod get pods",
    "kubectl version",
    "helm list",
    "gh pr list",
    "gh issue view 12",
    "gh run view 99",
    "npm view react",
    "npm search x",
    "npm ping",
  ];
  for (const command of reads) {
    test(`${command} only reads`, async () => expect(await readOnly(command)).toBe(true));
  }
  const writes = [
    "docker rm web",
    "docker run alpine",
    "kubectl delete pod api",
    "kubectl apply -f x.yaml",
    "helm install x y",
    "gh pr merge 1",
    "gh api /repos/x/y",
    "go env -w GOFLAGS=-x",
    "terraform apply",
    "terraform show", // state from a backend the workspace names, provider plugins run
    "terraform version", // a version check over the network, stamped in ~/.terraform.d
    "java --version", // every JVM start writes /tmp/hsperfdata_USER
    "javac -version",
    "npx -V", // not a version flag: npx runs a shell
    "npm audit", // the dependency list goes to the registry
    "docker --context remote ps", // a daemon elsewhere, named on the line
    "docker logs web > out.txt",
  ];
  for (const command of writes) {
    test(`${command} is not read-only`, async () => expect(await readOnly(command)).toBe(false));
  }
});
