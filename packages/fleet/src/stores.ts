import { loadSessionKey } from "@yoake/pod";
import { PostgresBlobStore } from "./blobs/postgres-blob-store.js";
import { FleetDatabase } from "./database/fleet-database.js";
import type { RetryPolicy } from "./database/retry.js";
import { PostgresSessionStore } from "./sessions/postgres-session-store.js";

/** A Pod's session and blob stores on one PostgreSQL database, and the way to let go of them. */
export interface FleetStores {
  database: FleetDatabase;
  sessionStore: PostgresSessionStore;
  blobStore: PostgresBlobStore;
  close(): Promise<void>;
}

/**
 * The stores a Pod uses to keep its sessions and blobs in the database at `url`, sealed with the
 * user's session key (`loadSessionKey(env)`); `project` limits listing (and so `--continue`) to
 * that project's sessions. The schema is made or migrated here, so a bad URL fails at once.
 */
export async function openFleetStores(
  url: string,
  options: {
    env: Readonly<Record<string, string | undefined>>;
    project?: string;
    leaseMs?: number;
    /** How long statements are retried while the database is away (default not at all). */
    retry?: RetryPolicy;
    /** The pool's most connections (default 10). */
    maxConnections?: number;
  },
): Promise<FleetStores> {
  const database = new FleetDatabase(url, {
    ...(options.retry !== undefined && { retry: options.retry }),
    ...(options.maxConnections !== undefined && { maxConnections: options.maxConnections }),
  });
  try {
    await database.ready();
  } catch (error) {
    await database.close();
    throw error;
  }
  const sessionStore = new PostgresSessionStore(database, {
    key: await loadSessionKey(options.env),
    ...(options.project !== undefined && { project: options.project }),
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    ...(options.retry !== undefined && { retry: options.retry }),
  });
  return {
    database,
    sessionStore,
    blobStore: new PostgresBlobStore(database),
    close: () => database.close(),
  };
}
