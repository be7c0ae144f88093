/**
 * A plain `toolrt hook` in the compiled binary: the resident helper answers when it runs (the
 * process then loads nothing but this and the client); otherwise this process decides itself,
 * exactly as the helper would, and starts a helper for the next call. `TOOLRT_NO_HOOK_HELPER=1`
 * keeps every call in its own process.
 */
import type { HookInvocation } from "./types.ts";
import { askHelper, startHelper } from "./resident/client.ts";
import { BUILD_HASH, helperSocket } from "./resident/socket.ts";

export async function runFastHook(invocation: HookInvocation): Promise<number> {
  const stdin = Bun.stdin.text();
  const uid = process.getuid?.();
  const socket = uid === undefined || process.env.TOOLRT_NO_HOOK_HELPER === "1"
    ? undefined
    : helperSocket(BUILD_HASH, process.env, uid);
  let handOff = false;
  if (socket && BUILD_HASH && uid !== undefined) {
    try {
      const request = { build: BUILD_HASH, ...invocation, cwd: process.cwd(), stdin: await stdin };
      const outcome = await askHelper(socket, request, uid);
      if ("answer" in outcome) {
        if (outcome.answer) await Bun.write(Bun.stdout, `${outcome.answer}\n`);
        return 0;
      }
      if (outcome.start) handOff = await startHelper(socket);
    } catch {
      // The helper is an optimisation: whatever went wrong, decide here.
    }
  }
  const [{ runHookProcess }, { globalsFrom }] = await Promise.all([
    import("./process.ts"),
    import("../cli/options.ts"),
  ]);
  // No colour: a hook never prints for a terminal, and asking would initialise process.stdout.
  return runHookProcess(invocation, globalsFrom({ color: false }), stdin, { handOff });
}
