/**
 * Paths pinned by descriptor: opened with O_PATH and O_NOFOLLOW, then checked through
 * `/proc/self/fd` to be exactly the path asked for. A last component that is a symbolic link opens
 * as the link itself, which is refused; a link anywhere before it shows as another resolved path. From
 * then on the descriptor names that inode whatever happens to the path: a bind takes its source
 * from it (bwrap `--bind-fd`), and quarantine moves go through it.
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync } from "node:fs";

const O_PATH = 0o10000000;

export class PinError extends Error {
  override name = "PinError";
}

/** A descriptor on `path` itself (a real path); throws PinError when it is not what it was. */
export function pinPath(path: string, options: { directory?: boolean } = {}): number {
  let fd: number;
  try {
    fd = openSync(path, O_PATH | constants.O_NOFOLLOW | (options.directory ? constants.O_DIRECTORY : 0));
  } catch (error) {
    throw new PinError(
      `${path} could not be opened (${(error as NodeJS.ErrnoException).code}): it changed after planning`,
    );
  }
  let resolved = "";
  try {
    resolved = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // no /proc: treated as a mismatch below
  }
  let link = false;
  try {
    link = fstatSync(fd).isSymbolicLink();
  } catch {
    link = true; // cannot tell: refused below
  }
  if (link) {
    closeSync(fd);
    throw new PinError(`${path} is now a symbolic link: it changed after planning`);
  }
  if (resolved !== path) {
    closeSync(fd);
    throw new PinError(
      `${path} resolved to ${resolved || "an unknown path"}: a symbolic link was put on its way`,
    );
  }
  return fd;
}

/** The path of `name` inside the directory pinned by `fd`, resolved through the descriptor. */
export const throughFd = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`;
