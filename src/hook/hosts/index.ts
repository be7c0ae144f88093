/** The hook protocols toolrt speaks, by the name `--host` takes. */
import type { HostName, HostProtocol } from "../types.ts";
import { claudeCode } from "./claude-code.ts";
import { codex } from "./codex.ts";
import { copilotCli } from "./copilot-cli.ts";
import { cursor } from "./cursor.ts";
import { geminiCli } from "./gemini-cli.ts";

export const PROTOCOLS: Record<HostName, HostProtocol> = {
  "claude-code": claudeCode,
  codex,
  "gemini-cli": geminiCli,
  cursor,
  "copilot-cli": copilotCli,
};
