/** Where plugins and skills live: the user's plugin dir, and the workspace's `.toolrt/` dirs. */
import { homedir } from "node:os";
import { join } from "node:path";

/** `$XDG_CONFIG_HOME/toolrt/plugins`, or `~/.config/toolrt/plugins`. */
export function userPluginDir(env: NodeJS.ProcessEnv = process.env): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(config, "toolrt", "plugins");
}

export function projectPluginDir(cwd: string): string {
  return join(cwd, ".toolrt", "plugins");
}

export function projectSkillsDir(cwd: string): string {
  return join(cwd, ".toolrt", "skills");
}
