/**
 * A running call's progress on a terminal: one status line rewritten in place (how much output so
 * far, how long), erased before the result is printed. The output itself is shown once, in the
 * result: streaming it as well printed everything twice.
 */
import type { ToolProgress } from "../tool/types.ts";
import { formatBytes } from "./units.ts";

export interface ProgressLine {
  update(progress: ToolProgress): void;
  /** Erases the status line (call before printing the result). */
  clear(): void;
}

const ERASE_LINE = "\r\x1b[K";

/** `columns`: the terminal's width (0 or absent when it does not say: 80). */
export function progressLine(
  toolName: string,
  write: (text: string) => void,
  columns?: number,
): ProgressLine {
  const width = columns || 80;
  const started = Date.now();
  let bytes = 0;
  let shown = false;
  return {
    update(progress) {
      bytes += Buffer.byteLength(progress.message);
      const seconds = Math.floor((Date.now() - started) / 1000);
      const status = `${toolName} running: ${formatBytes(bytes)} of output so far (${seconds} s)`;
      write(`${ERASE_LINE}${status.slice(0, width - 1)}`);
      shown = true;
    },
    clear() {
      if (shown) write(ERASE_LINE);
      shown = false;
    },
  };
}
