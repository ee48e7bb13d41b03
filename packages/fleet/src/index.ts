/**
 * @yoake/fleet: Yoake past one machine. Session logs and tool-output blobs in PostgreSQL, shared by
 * any number of machines, behind the same interfaces as the local files.
 */

export { PostgresBlobStore } from "./blobs/postgres-blob-store.js";
export { FleetDatabase, redactUrl } from "./database/fleet-database.js";
export { FleetClient } from "./runs/fleet-client.js";
export type {
  PendingPermission,
  RunOutcome,
  RunRecord,
  RunSpec,
  RunState,
  SavedWorkspace,
} from "./runs/run-record.js";
export { checkRunSpec, RunSpecError, SUBMITTER_OVERRIDES } from "./runs/submitter-policy.js";
export { PostgresSessionStore, type PostgresSessionStoreOptions } from "./sessions/postgres-session-store.js";
export { type FleetStores, openFleetStores } from "./stores.js";
export { type FleetWorker, type FleetWorkerOptions, startFleetWorker } from "./worker/fleet-worker.js";
