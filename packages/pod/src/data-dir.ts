import { createHash } from "node:crypto";
import { homedir } from "node:os";
import path from "node:path";

/**
 * Where a Pod keeps what it makes for one project (the BlobStore's `blobs/`, later its session
 * logs): `$XDG_STATE_HOME/yoake/projects/<name>-<hash>`, else `~/.local/state/yoake/projects/...`.
 * Outside the project, so nothing lands in the user's repository (and in its commits), and outside
 * the scope's default write rule, so the model cannot edit what it stored; keyed by the project's
 * real path, so two checkouts with the same name never share one.
 */
export function podDataDir(projectRoot: string, env: Readonly<Record<string, string | undefined>>): string {
  const name = path.basename(projectRoot).replace(/[^A-Za-z0-9._-]/g, "_") || "root";
  const hash = createHash("sha256").update(projectRoot).digest("hex").slice(0, 12);
  return path.join(yoakeStateDir(env), "projects", `${name}-${hash}`);
}

/**
 * The user's own Yoake state directory, `$XDG_STATE_HOME/yoake`, else `~/.local/state/yoake` (a
 * relative `XDG_STATE_HOME` is invalid per the spec and ignored): per user, never in a project.
 */
export function yoakeStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_STATE_HOME;
  const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
  const stateHome = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, ".local", "state");
  return path.join(stateHome, "yoake");
}
