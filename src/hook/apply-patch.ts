/**
 * The files a Codex `apply_patch` envelope touches: `*** Add File:`, `*** Update File:`,
 * `*** Delete File:` and the destination of `*** Move to:`. Each is a write.
 */
const HEADER = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;

export function patchedFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const path = HEADER.exec(line)?.[1]?.trim();
    if (path && !files.includes(path)) files.push(path);
  }
  return files;
}
