import { createHash } from "node:crypto";
import { homedir } from "node:os";
import path from "node:path";

/**
 * yoake's own directory in the user's state home: `$XDG_STATE_HOME/yoake` when that variable is an
 * absolute path, else `~/.local/state/yoake`. What lives here (blobs, the trust store) is the
 * user's, never the project's: a repository cannot ship it, and the scope's defaults do not reach it.
 */
export function yoakeStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_STATE_HOME;
  const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
  const stateHome = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, ".local", "state");
  return path.join(stateHome, "yoake");
}

/**
 * Where a Pod keeps what it makes for one project (the BlobStore's `blobs/`, later its session
 * logs): `<yoakeStateDir>/projects/<name>-<hash>`. Outside the project, so nothing lands in the
 * user's repository (and in its commits), and outside the scope's default write rule, so the model
 * cannot edit what it stored; keyed by the project's real path, so two checkouts with the same
 * name never share one.
 */
export function podDataDir(projectRoot: string, env: Readonly<Record<string, string | undefined>>): string {
  const name = path.basename(projectRoot).replace(/[^A-Za-z0-9._-]/g, "_") || "root";
  const hash = createHash("sha256").update(projectRoot).digest("hex").slice(0, 12);
  return path.join(yoakeStateDir(env), "projects", `${name}-${hash}`);
}
