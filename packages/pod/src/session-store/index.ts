export { FileSessionStore } from "./file-session-store.js";
export type { OpenedStoredSession, SessionStore, StoredSessionInfo } from "./session-store.js";
