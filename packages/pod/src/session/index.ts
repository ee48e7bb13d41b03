export { type SealedLine, SessionKey, sealLine, verifyLine, ZERO_HASH } from "./chain.js";
export {
  type AppendableEntry,
  type EntryBody,
  type EntryHeader,
  type EntryOf,
  type EntryType,
  entryBodySchema,
  entryHeaderSchema,
  itemEntry,
  type LogEntry,
  type LoggedSegment,
  SESSION_LOG_VERSION,
  type SessionConfig,
  type SessionLink,
  segmentSchema,
  sessionConfigSchema,
  sessionLinkSchema,
} from "./entry.js";
export { itemSchema } from "./item-schema.js";
export { type ContinuationInput, continueInNewSession, linkContinuation } from "./link.js";
export { readSessionLog, type SessionLogContents, type TornTail, verifyLogLine } from "./read.js";
export { isSecretKey, type Redacted, redactSecrets } from "./redact.js";
export {
  compactionSummaryItem,
  type LastRun,
  type RestoredSession,
  restoreSession,
  restoreSessionFile,
} from "./restore.js";
export { sessionConfigFromManifest } from "./session-config.js";
export { loadSessionKey, sessionKeyPath } from "./session-key.js";
export {
  type AppendReceipt,
  type Durability,
  type OpenedSessionLog,
  refuseSessionStart,
  SessionLog,
  type SessionLogOptions,
  type SessionStartInput,
  sealEntry,
  sealFirstLines,
} from "./session-log.js";
export { SessionLogError, type SessionLogErrorKind } from "./session-log-error.js";
export type { SessionWriter } from "./session-writer.js";
export {
  createSession,
  type DatedSession,
  findSession,
  latestOf,
  latestSession,
  listSessions,
  matchSession,
  openSession,
  SESSIONS_DIRECTORY,
  type SessionInfo,
  sessionsDir,
} from "./sessions.js";
