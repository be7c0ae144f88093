/**
 * The single-binary build.
 *
 *   bun run build.ts                         dist/toolrt for this machine
 *   bun run build.ts --targets all           + dist/toolrt-<os>-<arch> for the four release targets
 *   bun run build.ts --features AIRGAPPED    turn on compile-time gates (`feature()` from bun:bundle)
 *
 * Everything the binary needs (WASM grammars, shipped policies, prompts) is imported by the source
 * and embedded by the bundler. Cross-target Bun executables come only from the npm registry's
 * `@oven/bun-*` packages (fetched with `npm pack` into .cache/, at the pinned Bun version), never from another download.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import bunPackage from "./node_modules/bun/package.json" with { type: "json" };

export const RELEASE_TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"] as const;
export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

/** Bun's own package names spell arm64 as aarch64. */
const packageFor = (target: ReleaseTarget) => `@oven/bun-${target.replace("arm64", "aarch64")}`;

export interface BuildOptions {
  outfile: string;
  features: string[];
  target?: ReleaseTarget;
  /** The Bun executable to embed for a cross build (from `@oven/bun-<target>`). */
  executablePath?: string;
  /** Another program to compile the same way (bench/hook.ts: an empty one, for the start-up floor). */
  entrypoint?: string;
}

const ROOT = import.meta.dir;
const ENTRY = join(ROOT, "src/cli/entry.ts");
/** What a build is made of: a change to any of these is another build hash. */
const BUILD_INPUTS = ["src", "policy", "package-lock.json", "build.ts"];

/**
 * The hash of a build's inputs (sources, shipped policies, locked dependencies, Bun version,
 * features, target). Compiled in as TOOLRT_BUILD_HASH: the hook's resident helper serves only
 * processes of the same build.
 */
export function buildHash(options: Pick<BuildOptions, "features" | "target">): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(JSON.stringify([bunPackage.version, [...options.features].sort(), options.target ?? ""]));
  const files = BUILD_INPUTS.flatMap((input) => {
    const path = join(ROOT, input);
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  }).sort();
  for (const file of files) hasher.update(`\0${relative(ROOT, file)}\0`).update(readFileSync(file));
  return hasher.digest("hex");
}

export async function buildBinary(options: BuildOptions): Promise<void> {
  const result = await Bun.build({
    entrypoints: [options.entrypoint ?? ENTRY],
    minify: true,
    // Precompiled bytecode and split chunks: a process loads only the modules it runs, which a
    // hook (one fresh process per tool call of the host agent) pays on every call.
    bytecode: true,
    splitting: true,
    format: "esm",
    sourcemap: "none",
    features: options.features,
    define: { TOOLRT_BUILD_HASH: JSON.stringify(buildHash(options)) },
    compile: {
      outfile: options.outfile,
      ...(options.target ? { target: `bun-${options.target}` as Bun.Build.CompileTarget } : {}),
      ...(options.executablePath ? { executablePath: options.executablePath } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
  });
  if (!result.success) {
    throw new Error(`build failed:\n${result.logs.map(String).join("\n")}`);
  }
  chmodSync(options.outfile, 0o755);
}

/** Unpacks `@oven/bun-<target>` at the pinned Bun version from the npm registry; returns its bun binary. */
export async function targetExecutable(target: ReleaseTarget): Promise<string> {
  const version = bunPackage.version;
  const dir = join(ROOT, ".cache", "bun-targets", `${target}-${version}`);
  const binary = join(dir, "package", "bin", "bun");
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const spec = `${packageFor(target)}@${version}`;
  const pack = Bun.spawnSync(["npm", "pack", spec, "--pack-destination", dir, "--silent"]);
  if (pack.exitCode !== 0) throw new Error(`npm pack ${spec} failed: ${pack.stderr}${pack.stdout}`);
  const tarball = join(dir, pack.stdout.toString().trim().split("\n").pop() ?? "");
  const untar = Bun.spawnSync(["tar", "-xzf", tarball, "-C", dir]);
  if (untar.exitCode !== 0 || !existsSync(binary)) {
    throw new Error(`could not unpack ${tarball}: ${untar.stderr}`);
  }
  return binary;
}

async function cli(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      targets: { type: "string" },
      features: { type: "string", default: "" },
      outdir: { type: "string", default: "dist" },
    },
  });
  const features = values.features.split(",").map((f) => f.trim()).filter(Boolean);
  const outdir = resolve(values.outdir);
  mkdirSync(outdir, { recursive: true });

  await buildBinary({ outfile: join(outdir, "toolrt"), features });
  console.log(
    `built ${join(outdir, "toolrt")}${features.length ? ` (features: ${features.join(", ")})` : ""}`,
  );

  const targets = values.targets === "all" ? RELEASE_TARGETS : parseTargets(values.targets);
  for (const target of targets) {
    const outfile = join(outdir, `toolrt-${target}`);
    await buildBinary({ outfile, features, target, executablePath: await targetExecutable(target) });
    console.log(`built ${outfile}`);
  }
}

function parseTargets(value: string | undefined): ReleaseTarget[] {
  if (!value) return [];
  return value.split(",").map((t) => {
    if (!(RELEASE_TARGETS as readonly string[]).includes(t)) {
      throw new Error(`unknown target ${JSON.stringify(t)}; expected all or ${RELEASE_TARGETS.join(", ")}`);
    }
    return t as ReleaseTarget;
  });
}

if (import.meta.main) {
  try {
    await cli(Bun.argv.slice(2));
  } catch (error) {
    console.error(`build.ts: ${error instanceof Error ? error.message : error}`);
    process.exit(2);
  }
}
