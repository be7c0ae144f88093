/**
 * Starts each tool as soon as its tool_use block is complete, while the model is still streaming.
 * Each call moves queued → executing → completed → yielded. Safe calls run together (up to the cap);
 * an unsafe call runs alone and nothing queued after it overtakes it. Results are yielded in the
 * order the calls arrived. When a Bash call fails, its running and queued siblings are cancelled.
 */
import { errorMessage } from "../tool/errors.ts";
import { toolUseError } from "./errors.ts";
import type { CallOutcome, ToolCall } from "./types.ts";

type State = "queued" | "executing" | "completed" | "yielded";

interface Entry {
  call: ToolCall;
  safe: boolean;
  state: State;
  controller: AbortController;
  result?: CallOutcome;
  done?: Promise<void>;
}

export type ExecuteWithSignal = (call: ToolCall, signal: AbortSignal) => Promise<CallOutcome>;

/** The tools whose failure cancels the rest of the batch: a failed shell step makes the others moot. */
const CANCELS_SIBLINGS_ON_ERROR = new Set(["Bash"]);

export class StreamingToolExecutor {
  readonly #entries: Entry[] = [];
  readonly #execute: ExecuteWithSignal;
  readonly #isSafe: (call: ToolCall) => boolean;
  readonly #maxConcurrency: number;
  #siblingError: string | undefined;
  #wake: (() => void) | undefined;

  constructor(execute: ExecuteWithSignal, isSafe: (call: ToolCall) => boolean, maxConcurrency: number) {
    this.#execute = execute;
    this.#isSafe = isSafe;
    this.#maxConcurrency = maxConcurrency;
  }

  /** Called when a tool_use block has fully arrived. */
  addTool(call: ToolCall): void {
    this.#entries.push({
      call,
      safe: this.#isSafe(call),
      state: "queued",
      controller: new AbortController(),
    });
    this.#processQueue();
  }

  /** States, for tests and progress displays. */
  states(): { id: string; state: State }[] {
    return this.#entries.map((e) => ({ id: e.call.id, state: e.state }));
  }

  /** Results that can be yielded now without waiting, in arrival order. */
  *getCompletedResults(): Generator<CallOutcome> {
    for (const entry of this.#entries) {
      if (entry.state === "yielded") continue;
      if (entry.state !== "completed") return;
      entry.state = "yielded";
      yield entry.result!;
    }
  }

  /** Waits for every call added so far and yields the rest of the results in arrival order. */
  async *getRemainingResults(): AsyncGenerator<CallOutcome> {
    while (this.#entries.some((e) => e.state !== "yielded")) {
      yield* this.getCompletedResults();
      const next = this.#entries.find((e) => e.state !== "yielded");
      if (!next) break;
      if (next.state === "completed") continue;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Cancels everything still queued or running (the user interrupted the turn). */
  abort(reason = "interrupted"): void {
    this.#siblingError ??= reason;
    for (const entry of this.#entries) {
      if (entry.state === "queued") this.#complete(entry, this.#cancelled(entry.call, reason));
      else if (entry.state === "executing") entry.controller.abort(reason);
    }
  }

  #processQueue(): void {
    for (const entry of this.#entries) {
      if (entry.state !== "queued") continue;
      if (this.#siblingError) {
        this.#complete(entry, this.#cancelled(entry.call, this.#siblingError));
        continue;
      }
      if (!this.#canStart(entry)) break;
      this.#start(entry);
    }
  }

  #canStart(entry: Entry): boolean {
    const executing = this.#entries.filter((e) => e.state === "executing");
    if (executing.length === 0) return true;
    return entry.safe && executing.every((e) => e.safe) && executing.length < this.#maxConcurrency;
  }

  #start(entry: Entry): void {
    entry.state = "executing";
    entry.done = this.#execute(entry.call, entry.controller.signal)
      .catch((error): CallOutcome => ({
        toolUseId: entry.call.id,
        toolName: entry.call.name,
        isError: true,
        decision: "allow",
        content: [{
          type: "text",
          text: toolUseError(errorMessage(error)),
        }],
        durationMs: 0,
      }))
      .then((result) => {
        if (result.isError && CANCELS_SIBLINGS_ON_ERROR.has(result.toolName) && !this.#siblingError) {
          this.#siblingError = `a sibling ${result.toolName} call failed (${result.toolUseId})`;
          for (const other of this.#entries) {
            if (other !== entry && other.state === "executing") other.controller.abort();
          }
        }
        this.#complete(entry, result);
        this.#processQueue();
      });
  }

  #complete(entry: Entry, result: CallOutcome): void {
    entry.state = "completed";
    entry.result = result;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #cancelled(call: ToolCall, why: string): CallOutcome {
    return {
      toolUseId: call.id,
      toolName: call.name,
      isError: true,
      decision: "allow",
      content: [{ type: "text", text: toolUseError(`Cancelled: ${why}.`) }],
      durationMs: 0,
    };
  }
}
