/**
 * @yoake/fleet: Yoake past one machine. Session logs and tool-output blobs in PostgreSQL, shared by
 * any number of machines, behind the same interfaces as the local files.
 */

export { PostgresBlobStore } from "./blobs/postgres-blob-store.js";
export { FleetDatabase, redactUrl } from "./database/fleet-database.js";
export { PostgresSessionStore, type PostgresSessionStoreOptions } from "./sessions/postgres-session-store.js";
export { type FleetStores, openFleetStores } from "./stores.js";
