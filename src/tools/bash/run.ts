/**
 * Running one Bash call: in the background (a task from the start), or in the foreground with a
 * kill deadline, interruption by the AbortSignal, streamed progress, and a move to the background
 * when the command outlives the foreground budget.
 */
import { omittedNote } from "../../exec/processes/format.ts";
import type { ManagedProcess, StreamName } from "../../exec/processes/managed-process.ts";
import { joinExcerpt } from "../../exec/processes/excerpt.ts";
import { startCommand } from "../../exec/processes/start-command.ts";
import { taskRegistryFor } from "../../exec/processes/task-registry.ts";
import type { ToolContext, ToolProgress, ToolResult } from "../../tool/types.ts";
import { foregroundPlan } from "./foreground-plan.ts";
import type { CommandSemantics } from "./analysis.ts";
import type { LaunchWrapper } from "../../exec/processes/launch.ts";
import { isErrorStatus, outcomeOf } from "./outcome.ts";
import type { BashInput, BashOutput } from "./schema.ts";

export interface BashSettings {
  semantics: CommandSemantics;
  wrapLaunch: LaunchWrapper;
  killGraceMs: number;
  defaultTimeoutMs: number;
  /** A foreground command still running after this long moves to the background; null: never. */
  backgroundBudgetMs: number | null;
  /** Per stream, bytes of output kept for the result (a quarter from the start, the rest from the end). */
  maxOutputBytes: number;
}

/** Progress events carry at most this much of each chunk's text. */
const PROGRESS_TEXT_LIMIT = 4_000;

export async function runBash(
  input: BashInput,
  ctx: ToolContext,
  onProgress: (progress: ToolProgress) => void,
  settings: BashSettings,
  grantedWrites: string[] = [],
): Promise<ToolResult<BashOutput>> {
  if (ctx.abortSignal.aborted) return notStarted();
  const headBytes = Math.floor(settings.maxOutputBytes / 4);
  // Progress is for the foreground wait only; a background task keeps its output to its file.
  let reporting = !input.run_in_background;
  const report = progressReporter(onProgress);
  const { id, process: child, launch } = await startCommand({
    command: input.command,
    cwd: ctx.cwd,
    stateDir: ctx.stateDir,
    kind: "bash",
    input: "none",
    unsandboxed: input.dangerouslyDisableSandbox === true,
    grantedWrites,
    wrapLaunch: settings.wrapLaunch,
    capture: { headBytes, tailBytes: settings.maxOutputBytes - headBytes },
    killGraceMs: settings.killGraceMs,
    onOutput: (stream, chunk) => reporting && report(stream, chunk),
  });
  const notices = launch.notices?.length ? { notices: launch.notices } : {};
  /** `shown`: the output so far reached the model in this result, so TaskOutput starts after it. */
  const moveToBackground = (shown: boolean) => {
    child.log.ensureFile();
    taskRegistryFor(ctx.session).add({
      id,
      kind: "bash",
      description: input.description,
      process: child,
      readCursor: shown ? child.log.bytes : 0,
      ...(launch.afterRun ? { afterRun: launch.afterRun } : {}),
    });
  };
  if (input.run_in_background) {
    if (input.timeout !== undefined) child.setDeadline(input.timeout);
    // Nothing of the output is in this result: TaskOutput reads all of it, from the start.
    moveToBackground(false);
    return { data: { ...emptyOutput(), ...notices, backgroundTaskId: id, outputPath: child.log.path } };
  }

  const plan = foregroundPlan(input.timeout, settings.defaultTimeoutMs, settings.backgroundBudgetMs);
  if (plan.killAfterMs !== undefined) child.setDeadline(plan.killAfterMs);
  const interrupt = () => void child.stop("interrupt");
  ctx.abortSignal.addEventListener("abort", interrupt, { once: true });
  if (ctx.abortSignal.aborted) interrupt(); // aborted while the launch was being prepared
  try {
    const finished = await endsWithin(child, plan.backgroundAfterMs);
    if (!finished) {
      moveToBackground(true);
      return {
        data: {
          ...snapshot(child),
          ...notices,
          backgroundTaskId: id,
          movedToBackground: true,
          outputPath: child.log.path,
        },
      };
    }
  } finally {
    reporting = false;
    ctx.abortSignal.removeEventListener("abort", interrupt);
  }
  const result = finishedResult(input.command, child, settings.semantics);
  const later = launch.afterRun?.() ?? [];
  const data = result.data;
  const failed = result.isError && !data.timedOut && !data.interrupted;
  const failure = { output: `${data.stderr}\n${data.stdout}`, exitCode: data.exitCode ?? 1 };
  const explanation = failed ? launch.explainFailure?.(failure) : undefined;
  // A person allowed the path the sandbox blocked: the command runs once more, with it writable.
  const retry = explanation && grantedWrites.length === 0 ? await launch.askToRetry?.(failure) : null;
  if (retry && !ctx.abortSignal.aborted) {
    const again = await runBash(input, ctx, onProgress, settings, retry.allowWrite);
    const first = [retry.notice, ...later];
    return { ...again, data: { ...again.data, notices: [...first, ...again.data.notices ?? []] } };
  }
  const allNotices = [...launch.notices ?? [], ...later];
  return {
    ...result,
    data: {
      ...data,
      ...(allNotices.length ? { notices: allNotices } : {}),
      ...(explanation ? { sandboxExplanation: explanation } : {}),
    },
  };
}

/** True when the process ended before `ms` (never false without a budget). */
async function endsWithin(child: ManagedProcess, ms: number | undefined): Promise<boolean> {
  if (ms === undefined) {
    await child.ended;
    return true;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const ended = await Promise.race([child.ended.then(() => true), budget]);
  clearTimeout(timer);
  return ended;
}

function finishedResult(
  command: string,
  child: ManagedProcess,
  semantics: CommandSemantics,
): ToolResult<BashOutput> {
  const data = snapshot(child);
  const truncated = data.outputPath !== undefined;
  if (!truncated) child.log.discard();
  const end = child.end!;
  const outcome = outcomeOf(command, end, semantics);
  return {
    data: {
      ...data,
      exitCode: end.exitCode,
      interrupted: outcome.status === "interrupted",
      ...(outcome.status === "timed_out" ? { timedOut: true } : {}),
      ...(outcome.exitMeaning ? { exitMeaning: outcome.exitMeaning } : {}),
    },
    isError: isErrorStatus(outcome.status),
  };
}

/** What the process has printed so far, with the log path when the text is not whole. */
function snapshot(child: ManagedProcess): BashOutput {
  const stdout = child.captured.stdout.excerpt();
  const stderr = child.captured.stderr.excerpt();
  const note = (bytes: number) => omittedNote(bytes, child.log.path);
  const truncated = stdout.omittedBytes > 0 || stderr.omittedBytes > 0;
  return {
    ...emptyOutput(),
    stdout: joinExcerpt(stdout, note),
    stderr: joinExcerpt(stderr, note),
    ...(truncated ? { outputPath: child.log.path } : {}),
    durationMs: Date.now() - child.startedAt,
  };
}

function emptyOutput(): BashOutput {
  return {
    stdout: "",
    stderr: "",
    exitCode: null,
    interrupted: false,
    durationMs: 0,
    isImage: false,
    noOutputExpected: false,
  };
}

function notStarted(): ToolResult<BashOutput> {
  return { data: { ...emptyOutput(), interrupted: true }, isError: true };
}

function progressReporter(onProgress: (progress: ToolProgress) => void) {
  const started = Date.now();
  const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  const totalBytes = { stdout: 0, stderr: 0 };
  return (stream: StreamName, chunk: Uint8Array) => {
    totalBytes[stream] += chunk.length;
    const decoded = decoders[stream].decode(chunk, { stream: true });
    const text = decoded.length > PROGRESS_TEXT_LIMIT ? decoded.slice(-PROGRESS_TEXT_LIMIT) : decoded;
    onProgress({
      message: text,
      data: { stream, text, totalBytes: totalBytes[stream], elapsedMs: Date.now() - started },
    });
  };
}
