/** The text the model receives for a Bash result: output first, then one line on how it ended. */
import { formatDuration } from "../../exec/processes/format.ts";
import type { BashOutput } from "./schema.ts";

export function bashContentText(output: BashOutput): string {
  const parts = [output.stdout.trimEnd(), output.stderr.trimEnd()].filter(Boolean);
  const status = statusLine(output);
  if (status) parts.push(status);
  if (output.sandboxExplanation) parts.push(output.sandboxExplanation);
  parts.push(...output.notices ?? []);
  return parts.join("\n") || "(no output)";
}

/** How the command ended (or that it runs on), for the model; undefined for a plain success. */
export function statusLine(output: BashOutput): string | undefined {
  const id = output.backgroundTaskId;
  if (id) {
    const how = output.movedToBackground
      ? `Still running after ${formatDuration(output.durationMs)}: moved to the background as task ${id}.`
      : `Running in the background as task ${id}.`;
    return `${how} Read its output with TaskOutput (task_id "${id}"); stop it with TaskStop. ` +
      `Output file: ${output.outputPath}`;
  }
  if (output.timedOut) {
    return `Timed out after ${
      formatDuration(output.durationMs)
    }: the command and everything it started were stopped.`;
  }
  if (output.interrupted) {
    return "Interrupted: the command and everything it started were stopped; the output above is what it printed before.";
  }
  if (output.exitCode !== 0 || output.exitMeaning) {
    return `Exit code ${output.exitCode}${output.exitMeaning ? ` (${output.exitMeaning})` : ""}`;
  }
  return undefined;
}
