import { homedir } from "node:os";
import path from "node:path";
import { findProjectRoot, type PodOptions } from "@yoake/pod";
import { CliError } from "./cli-error.js";

/** The Pod options that keep sessions and blobs in a database, and how to let go of it. */
export interface DatabaseStores {
  podOptions: Pick<PodOptions, "sessionStore" | "blobStore">;
  close(): Promise<void>;
}

/**
 * `--db URL` (or `YOAKE_DATABASE_URL`): the project's sessions and blobs in that PostgreSQL
 * database instead of `.yoake/`. `@yoake/fleet` (and its `pg`) is loaded only then. A database that
 * cannot be reached is a one-line configuration error.
 */
export async function openDatabaseStores(
  url: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DatabaseStores> {
  const { openFleetStores, redactUrl } = await import("@yoake/fleet");
  const project = await findProjectRoot(cwd, path.resolve(env.HOME ?? homedir()));
  try {
    const stores = await openFleetStores(url, { env, project });
    return {
      podOptions: { sessionStore: stores.sessionStore, blobStore: stores.blobStore },
      close: stores.close,
    };
  } catch (error) {
    throw new CliError(`cannot use the database ${redactUrl(url)}: ${(error as Error).message}`);
  }
}
