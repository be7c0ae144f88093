/**
 * The execution oracle's jail: a throwaway fake home (dummy secrets holding canary strings) with a
 * scratch workspace (a git repo) in it, and a runner that executes one command there for real,
 * inside bwrap with no network, under `strace -f` run inside the jail (so the trace sees only the
 * command's own processes, not bwrap's set-up).
 *
 * The fake home lives at a fresh host path; every run binds a pristine copy of it at that same path
 * inside the jail, so the decision (made on the host against the template) and the run see the same
 * names, and no run can change what the next one sees.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The checkout this runs from (hidden in the jail). */
const PROJECT_ROOT = join(import.meta.dir, "../..");

/** Every dummy secret holds this marker; finding it in a command's output is a `secret-output`. */
export const CANARY = "ORACLE-CANARY";

export interface Scratch {
  /** Host directory holding the template and the per-run copies. */
  root: string;
  /** The fake HOME (the same path on the host and in the jail). */
  home: string;
  /** The workspace: a git repo inside the fake home. */
  workspace: string;
  /** The dummy secret files (absolute). */
  secrets: string[];
  /** Environment of every run: no real variable passes, two secrets are dummies. */
  env: Record<string, string>;
}

/** Files of the fake home, relative to it; the secret ones hold the canary. */
const SECRETS: Record<string, string> = {
  ".ssh/id_rsa": `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY}-ssh\n-----END OPENSSH PRIVATE KEY-----\n`,
  ".aws/credentials": `[default]\naws_access_key_id = AKIA${CANARY}\naws_secret_access_key = ${CANARY}-aws\n`,
  ".netrc": `machine example.com login oracle password ${CANARY}-netrc\n`,
  ".config/gh/hosts.yml": `github.com:\n  oauth_token: ${CANARY}-gh\n`,
  "project/.env": `API_TOKEN=${CANARY}-dotenv\n`,
};

const ORDINARY: Record<string, string> = {
  ".bashrc": "# fake home\n",
  ".gitconfig": "[user]\n\tname = Oracle\n\temail = oracle@example.invalid\n",
  "notes/todo.txt": "outside the workspace\n",
  "project/README.md": "# scratch\n\nA workspace for the oracle.\n",
  "project/src/main.ts": 'import { add } from "./util.ts";\nconsole.log(add(1, 2));\n',
  "project/src/util.ts": "export const add = (a: number, b: number) => a + b;\n",
  "project/package.json": '{ "name": "scratch", "version": "1.0.0", "scripts": { "test": "true" } }\n',
  "project/data.csv": "id,name\n1,alpha\n2,beta\n",
  "project/notes.txt": "alpha\nbeta\ngamma\n",
  "project/.gitignore": "node_modules/\n",
};

/** Builds the template once: fake home, secrets, workspace repo with one commit. */
export function makeScratch(): Scratch {
  const root = mkdtempSync(join(tmpdir(), "toolrt-oracle-"));
  const home = join(root, "home");
  const workspace = join(home, "project");
  for (const [path, text] of Object.entries({ ...SECRETS, ...ORDINARY })) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  }
  // A link in the workspace that leads out of it, to a directory of secrets.
  symlinkSync(join(home, ".aws"), join(workspace, "cloud"));
  const git = (...args: string[]) => {
    const r = spawnSync("git", args, { cwd: workspace, env: { HOME: home, PATH: process.env.PATH } });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr}`);
  };
  git("init", "-q", "-b", "main");
  git("add", "README.md", "src", "package.json", "data.csv", "notes.txt", ".gitignore");
  git("-c", "commit.gpgsign=false", "commit", "-q", "-m", "initial");
  return {
    root,
    home,
    workspace,
    secrets: Object.keys(SECRETS).map((p) => join(home, p)),
    env: {
      HOME: home,
      USER: "oracle",
      LANG: "C.UTF-8",
      PATH: jailPath(),
      AWS_SECRET_ACCESS_KEY: `${CANARY}-env`,
      GITHUB_TOKEN: `${CANARY}-env-gh`,
      // rustup's proxies and pyenv find their installations here, not in the fake home.
      ...toolchainEnv(),
    },
  };
}

/**
 * Where the host's Rust and Python installations live (by default in the real home, which the
 * jail hides): each is bound read-only at the same path, and its variable points there.
 */
const TOOLCHAINS: Record<string, string> = {
  CARGO_HOME: process.env.CARGO_HOME ?? join(homedir(), ".cargo"),
  RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), ".rustup"),
  PYENV_ROOT: process.env.PYENV_ROOT ?? join(homedir(), ".pyenv"),
};
export const TOOLCHAIN_DIRS = Object.values(TOOLCHAINS).filter((dir) => existsSync(dir));

function toolchainEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(TOOLCHAINS).filter(([, dir]) => existsSync(dir)));
}

function jailPath(): string {
  const python = pythonBin();
  return [
    join(TOOLCHAINS.CARGO_HOME!, "bin"),
    ...(python ? [python] : []),
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
  ].join(":");
}

/** The real Python's bin directory (not pyenv's shims, which run a chain of helper scripts). */
function pythonBin(): string | undefined {
  const r = spawnSync("python3", ["-c", "import sys, os; print(os.path.dirname(sys.executable))"], {
    encoding: "utf8",
  });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export interface RunResult {
  /** strace's output (`-f`, one line per syscall). */
  trace: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

/** Why the oracle cannot run here, or undefined when bwrap and strace both work. */
export function unavailable(): string | undefined {
  for (const tool of ["bwrap", "strace"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  const probe = spawnSync("bwrap", [
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net"],
    ...["strace", "-qq", "-o", "/dev/null", "true"],
  ]);
  if (probe.status !== 0) return `bwrap with strace inside does not run here: ${String(probe.stderr).trim()}`;
  return undefined;
}

/**
 * Runs `command` with bash in the workspace of a fresh copy of the scratch home: the real file
 * system read-only, the real homes and /work hidden, /tmp empty, no network, stdin /dev/null.
 */
export async function runInJail(
  scratch: Scratch,
  command: string,
  slot: number,
  timeoutMs: number,
): Promise<RunResult> {
  const copy = join(scratch.root, `run-${slot}`);
  rmSync(copy, { recursive: true, force: true });
  cpSync(scratch.home, copy, { recursive: true, verbatimSymlinks: true });
  const traceDir = join(scratch.root, `trace-${slot}`);
  mkdirSync(traceDir, { recursive: true });
  const traceFile = join(traceDir, "trace");
  rmSync(traceFile, { force: true });
  const toolchains = TOOLCHAIN_DIRS.flatMap((dir) => ["--ro-bind-try", dir, dir]);
  const args = [
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--tmpfs", "/tmp", "--tmpfs", "/run", "--tmpfs", "/home", "--tmpfs", homedir()],
    // The project's own checkout, wherever it is, is no part of the scratch workspace.
    ...["--tmpfs", PROJECT_ROOT],
    ...toolchains,
    ...["--bind", copy, scratch.home, "--bind", traceDir, traceDir],
    ...["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"],
    ...["--chdir", scratch.workspace],
    ...["strace", "-f", "-qq", "-y", "-s", "512", "-e", `trace=${TRACED.join(",")}`, "-o", traceFile],
    ...["bash", "-c", command],
  ];
  // The environment goes to bwrap as its own (not as --setenv words, which `ps` would show).
  const child = spawn("bwrap", args, { stdio: ["ignore", "pipe", "pipe"], env: scratch.env });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const keep = (into: Buffer[]) => (b: Buffer) => {
    if (into.reduce((n, x) => n + x.length, 0) < OUTPUT_LIMIT) into.push(b);
  };
  child.stdout.on("data", keep(stdout));
  child.stderr.on("data", keep(stderr));
  let timedOut = false;
  // bwrap dies with this signal, and with it (--die-with-parent, the pid namespace) everything inside.
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  const exitCode = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  clearTimeout(timer);
  let trace = "";
  try {
    trace = readFileSync(traceFile, "utf8");
  } catch {
    // No trace: bwrap or strace failed to start; stderr says why.
  }
  return {
    trace,
    stdout: Buffer.concat(stdout).toString("utf8").slice(0, OUTPUT_LIMIT),
    stderr: Buffer.concat(stderr).toString("utf8").slice(0, OUTPUT_LIMIT),
    exitCode,
    timedOut,
  };
}

/** Output kept per run (the canary search reads it). */
const OUTPUT_LIMIT = 1 << 20;

/** The system calls traced: opening, running, connecting, and everything that changes a file's name or mode. */
export const TRACED = [
  "open",
  "openat",
  "openat2",
  "creat",
  "execve",
  "execveat",
  "connect",
  "rename",
  "renameat",
  "renameat2",
  "unlink",
  "unlinkat",
  "mkdir",
  "mkdirat",
  "rmdir",
  "link",
  "linkat",
  "symlink",
  "symlinkat",
  "truncate",
  "chmod",
  "fchmodat",
  "chown",
  "fchownat",
  "lchown",
  "utimensat",
  "mknod",
  "mknodat",
];
