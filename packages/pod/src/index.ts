export type { Alert, AlertLevel } from "./alert.js";
export { previewToolCall } from "./approval/diff-preview.js";
export type { DiffPreview, PermissionDecision, PermissionRequest } from "./approval/permission.js";
/** Custom slash commands (`.yoake/commands/*.md`, `<config>/yoake/commands/*.md`): what a UI lists and expands. */
export {
  type CustomCommand,
  type CustomCommands,
  expandCommand,
  loadCustomCommands,
} from "./commands/custom-commands.js";
export type { CompactionSettings } from "./compaction/compaction-settings.js";
export { COMPACTION_INSTRUCTION, SUMMARY_HEADING } from "./compaction/summary-prompt.js";
export { podDataDir, yoakeStateDir } from "./data-dir.js";
/** `--effort` / `/effort`: the levels, and what each becomes per scheme. */
export { EFFORT_LEVELS, type EffortLevel, isEffortLevel, reasoningForEffort } from "./effort/effort.js";
export {
  type FileRefFailure,
  type FileRefResolution,
  fileRefPlaceholder,
  flattenSegments,
  IMAGE_LIMIT_BYTES,
  imageTooLarge,
  MAX_LISTED_ENTRIES,
  parseSegments,
  resolveFileRef,
  type Segment,
  sniffImageType,
} from "./file-ref/index.js";
export { BLOCK_EXIT_CODE } from "./hooks/hook-verdict.js";
export { createShellHooks, type ShellHookContext } from "./hooks/shell-hook.js";
export {
  type CatalogueMatch,
  catalogue,
  lookupModel,
  type ModelEntry,
  type ModelPrices,
  type ProviderEntry,
  parseModelRef,
} from "./manifest/catalogue.js";
export { DEFAULT_HOOK_TIMEOUT_MS, DEFAULT_LAYER, DEFAULT_PROMPT } from "./manifest/defaults.js";
export {
  findProjectRoot,
  type LoadManifestOptions,
  loadManifest,
  PROJECT_DIR,
  userManifestPath,
} from "./manifest/load.js";
export { formatIssue, ManifestError, type ManifestIssue } from "./manifest/manifest-error.js";
export type { McpServerSpec, McpServerTransport } from "./manifest/mcp-resolve.js";
export type { McpServerInput } from "./manifest/mcp-schema.js";
export { parseOverrideAssignments } from "./manifest/overrides.js";
export { ProjectTrustError } from "./manifest/project-trust-error.js";
export type {
  GenerationSettings,
  HookEvent,
  HookSpec,
  Instructions,
  Limits,
  Manifest,
  ManifestLayerInfo,
  ResolvedModel,
  ShellSettings,
  ToolSettings,
} from "./manifest/resolve.js";
export {
  HOOK_EVENTS,
  type HookInput,
  type ManifestLayer,
  type ManifestLayerInput,
  manifestLayerSchema,
  validateLayer,
} from "./manifest/schema.js";
export type { TrustRequest, TrustRequestKind } from "./manifest/trust.js";
export type { ProjectTrustPolicy } from "./manifest/trust-gate.js";
/** A run's cost at list prices, by the model that answered each turn. */
export { RunCostMeter, usageCost } from "./manifest/usage-cost.js";
export type { McpServerState, McpServerStatus } from "./mcp/mcp-server-status.js";
export { MCP_STARTUP_WAIT_MS } from "./mcp/mcp-supervisor.js";
/** The model's plan (`todo_write`): its shape, and the plain-text form the model and a terminal read. */
export { formatPlan, type Plan, type PlanItem, type PlanStatus } from "./plan/plan.js";
export { Pod, type PodOptions, type PodRunOptions, type PodRunResult } from "./pod.js";
export { clientForModel } from "./pod-client.js";
export type { PodEvent, PodEventOf, PodEventType, PodOwnEvent } from "./pod-events.js";
export { CompactionError, type CompactionResult } from "./pod-session/compaction-result.js";
export type { SessionChoice } from "./pod-session/open-pod-session.js";
export type { RestoredSessionInfo } from "./pod-session/pod-session.js";
export type { NoteOutcome, NoteRole, PodRunState, PodStatus } from "./pod-status.js";
export * from "./protocol/index.js";
export { isCaseInsensitiveAt } from "./scope/case-sensitivity.js";
export type { Access, RuleKind, Scope, ScopeRule } from "./scope/rules.js";
export { ScopeError, type ScopeRefusal } from "./scope/scope-error.js";
export {
  type DirEntry,
  type EntryType,
  type FileInfo,
  type FilePrefix,
  type ReadableFile,
  type ScopeDecision,
  ScopedFs,
  type ScopedFsOptions,
} from "./scope/scoped-fs.js";
export * from "./session/index.js";
export * from "./session-store/index.js";
/** The shell tools' names, and why a command waits for approval (`PermissionRequest.command`). */
export { BASH_OUTPUT_TOOL_NAME, BASH_TOOL_NAME } from "./shell/bash-tool.js";
export type { CommandAsk } from "./shell/command-approval.js";
export * from "./tools/index.js";
