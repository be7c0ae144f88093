#!/usr/bin/env bun
/**
 * The compiled binary's entry. A plain `toolrt hook [--host H]` runs on the hook's modules alone
 * (a hook is a fresh process per tool call: start-up is paid every time), and asks the resident
 * helper first (src/hook/resident/); `toolrt sandbox …`, its in-sandbox helper and its change
 * watcher run on the sandbox command alone, for the same reason; everything else, and a hook call with other options,
 * goes through the full command line of main.ts.
 */
import { fastHookInvocation, isHelperCommand } from "../hook/args.ts";

/**
 * How much more reluctant to compile a short-lived process's JIT is (measured on `toolrt sandbox --
 * true`: 38.6 ms of CPU at 1, 32.1 at 10, 31.5 at 1000; a first call over 100k files, whose walk
 * runs long enough to be compiled anyway, costs the same at 10).
 */
const SHORT_LIVED_JIT_POLICY = 10;
const argv = process.argv.slice(2);
const hook = fastHookInvocation(argv);
if (hook) {
  const { runFastHook } = await import("../hook/fast.ts");
  // Exit as soon as the answer is out: nothing left behind may keep the host waiting.
  process.exit(await runFastHook(hook));
} else if (isHelperCommand(argv)) {
  const { runResidentHelper } = await import("../hook/resident/main.ts");
  process.exitCode = await runResidentHelper();
} else if (argv[0] === "sandbox" || argv[0] === "sandbox-bridge" || argv[0] === "sandbox-watch") {
  // A sandboxed command's toolrt runs most of its code once: compiling it (on JIT threads, whose CPU
  // the process pays) costs more than it saves. The resident watcher keeps the normal policy.
  if (argv[0] !== "sandbox-watch") Bun.unsafe.setJITPolicy(SHORT_LIVED_JIT_POLICY);
  const { sandboxEntry } = await import("./sandbox-command.ts");
  process.exitCode = await sandboxEntry(argv);
} else {
  const { main } = await import("./main.ts");
  process.exitCode = await main(argv);
}
