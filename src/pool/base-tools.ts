/**
 * The single list of built-in tools. Families behind `feature()` are decided at compile time:
 * a build without the flag does not contain their code at all.
 */
import { feature } from "bun:bundle";
import type { AnyTool } from "../tool/types.ts";

export function getAllBaseTools(): AnyTool[] {
  return [
    ...coreTools(),
    // Air-gapped builds ship without network tools: not hidden, absent from the binary.
    ...(feature("AIRGAPPED") ? [] : networkTools()),
  ];
}

function coreTools(): AnyTool[] {
  return [];
}

function networkTools(): AnyTool[] {
  return [];
}
