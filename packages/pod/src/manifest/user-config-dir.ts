import { homedir } from "node:os";
import path from "node:path";
import { userManifestPath } from "./load.js";

/** `name` in the user's yoake config directory (beside the user manifest: `$XDG_CONFIG_HOME/yoake/`). */
export function userConfigPath(env: Readonly<Record<string, string | undefined>>, name: string): string {
  return path.join(path.dirname(userManifestPath(env, env.HOME ?? homedir())), name);
}
