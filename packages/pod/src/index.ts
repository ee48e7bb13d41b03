/**
 * `@yoake/pod`: what an embedder uses to run Pods. The wire protocol is `@yoake/pod/protocol` (its
 * client alone, `@yoake/pod/client`); what a session store of its own is built from is
 * `@yoake/pod/session-log`. The Pod itself is `Pod` (below, from `./pod.js`).
 */

/** A paused run's approval request, the preview of the change it asks for, and the answers `pod.respond` takes. */
export type { DiffPreview, PermissionDecision, PermissionRequest } from "./approval/permission.js";
/** Custom slash commands (`.yoake/commands/*.md`, `<config>/yoake/commands/*.md`): what a UI lists and expands. */
export {
  type CustomCommand,
  type CustomCommands,
  expandCommand,
  loadCustomCommands,
} from "./commands/custom-commands.js";
/** What `pod.compact()` returns, and what it throws when the summary request fails. */
export { CompactionError, type CompactionResult } from "./compaction/compaction-result.js";
/** When and how a session is compacted (`PodOptions.compaction`). */
export type { CompactionSettings } from "./compaction/compaction-settings.js";
/** `--effort` / `/effort`: the levels, and what each becomes per scheme. */
export { EFFORT_LEVELS, type EffortLevel, isEffortLevel, reasoningForEffort } from "./effort/effort.js";
/** Images a client attaches (`PodRunOptions.images`): the size limit and the type from the bytes. */
export { IMAGE_LIMIT_BYTES, imageTooLarge, sniffImageType } from "./file-ref/image-file.js";
/** Input with `@<path>` file references: parse it into segments (`pod.run` takes either). */
export { parseSegments, type Segment } from "./file-ref/segments.js";
/** A model's prices in the catalogue (USD per million tokens), for a cost shown to the user. */
export type { ModelPrices } from "./manifest/catalogue.js";
/** Yoake's own state directory (the session key, blobs, trust), kept from what a Pod runs. */
export { yoakeStateDir } from "./manifest/data-dir.js";
/** The manifest cascade alone: load it, find the project root it starts from, the user's manifest file. */
export {
  findProjectRoot,
  type LoadManifestOptions,
  loadManifest,
  userManifestPath,
} from "./manifest/load.js";
/** A manifest that cannot be used: every problem, with file, key and what was expected. */
export { ManifestError, type ManifestIssue } from "./manifest/manifest-error.js";
/** Command-line `key=value` assignments as a manifest layer (values read as TOML). */
export { parseOverrideAssignments } from "./manifest/overrides.js";
/** A project manifest that asks for more than the safe defaults and is not trusted (`PodOptions.projectTrust`). */
export { ProjectTrustError } from "./manifest/project-trust-error.js";
/** The resolved manifest (`pod.manifest`, `loadManifest`). */
export type { Manifest } from "./manifest/resolve.js";
/** One manifest layer as written in TOML: what `PodOptions.overrides` takes. */
export type { ManifestLayerInput } from "./manifest/schema.js";
/** What an untrusted project manifest asks for (each item a `ProjectTrustError` lists). */
export type { TrustRequest, TrustRequestKind } from "./manifest/trust.js";
/** What `Pod.create` does with a project manifest the user has not trusted (`PodOptions.projectTrust`). */
export type { ProjectTrustPolicy } from "./manifest/trust-gate.js";
/** A run's cost at list prices, by the model that answered each turn. */
export { RunCostMeter, usageCost } from "./manifest/usage-cost.js";
/** The `[[mcp]]` servers' state (`pod.mcpServers()`). */
export type { McpServerState, McpServerStatus } from "./mcp/mcp-server-status.js";
/** The model's plan (`todo_write`): its shape, and the plain-text form the model and a terminal read. */
export { formatPlan, type Plan, type PlanItem, type PlanStatus } from "./plan/plan.js";
/** Something the user should know that is not part of the conversation (an `alert` event). */
export type { Alert, AlertLevel } from "./pod/alert.js";
/** What a Pod tells its listeners (`pod.on`, `pod.listen`, `pod.events()`): Worker events and the Pod's own. */
export type { PodEvent, PodEventOf, PodEventType } from "./pod/events.js";
/** How the session a Pod continues had left off (`pod.restored`). */
export type { RestoredSessionInfo } from "./pod/session.js";
/** `pod.status()`, and what `pod.notify` does with a note. */
export type { NoteOutcome, NoteRole, PodRunState, PodStatus } from "./pod/status.js";
/** The Pod: one agent configured by the manifest cascade (`Pod.create`), and its run options and results. */
export { Pod, type PodOptions, type PodRunOptions, type PodRunResult } from "./pod.js";
/** The socket of the Pod that `yoake serve` runs for the project around a directory, if one answers there. */
export { findServedPod } from "./protocol/socket-path.js";
/** Which session a Pod writes (`PodOptions.session`): new, the latest, or one by id. */
export type { SessionChoice } from "./restore/open-pod-session.js";
/** The scope: what the agent may read and write (`manifest.scope`, `ScopedFs.create`). */
export type { Access, Scope, ScopeRule } from "./scope/rules.js";
/** What `ScopedFs` throws for a path the scope refuses; its message names the rule. */
export { ScopeError } from "./scope/scope-error.js";
/** The only file system the Pod's tools use: every path checked against the scope. */
export { ScopedFs, type ScopedFsOptions } from "./scope/scoped-fs.js";
/** The default session store: the project's `.yoake/sessions/*.jsonl` files. */
export { FileSessionStore } from "./session-log/file-session-store.js";
/** The user's session key, which seals every log line (for a `FileSessionStore` or a store of your own). */
export { loadSessionKey } from "./session-log/session-key.js";
/** When a log entry counts as written (`PodOptions.sessionDurability`). */
export type { Durability } from "./session-log/session-log.js";
/** A session that cannot be opened or written (not found, ambiguous, locked, tampered, ...). */
export { SessionLogError, type SessionLogErrorKind } from "./session-log/session-log-error.js";
/** Where session logs are kept (`PodOptions.sessionStore`), and what a store lists and opens. */
export type { OpenedStoredSession, SessionStore, StoredSessionInfo } from "./session-log/session-store.js";
/** A session file of the project (`Pod.listSessions`). */
export type { SessionInfo } from "./session-log/sessions.js";
/** The file tools (`read_file`, `write_file`, `edit_file`, `glob`, `grep`) over a `ScopedFs`, for a Worker of your own. */
export { createFileTools, type FileToolsOptions } from "./tools/index.js";
