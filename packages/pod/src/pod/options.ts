import type { BlobStore, ImagePart, LlmClient, RunOptions, Tool, WorkerResult } from "@yoake/llm-worker";
import type { PermissionRequest } from "../approval/permission.js";
import type { CompactionSettings } from "../compaction/compaction-settings.js";
import type { ManifestLayerInput } from "../manifest/schema.js";
import type { ProjectTrustPolicy } from "../manifest/trust-gate.js";
import type { SessionChoice } from "../restore/open-pod-session.js";
import type { Scope } from "../scope/rules.js";
import type { Durability } from "../session-log/session-log.js";
import type { SessionStore } from "../session-log/session-store.js";
import type { TaskLimits } from "../subagents/task-limits.js";

/** Options of `Pod.run`: the run's signal, and images the client attached to the prompt. */
export interface PodRunOptions extends RunOptions {
  images?: readonly ImagePart[];
}

/** How `Pod.create` builds a Pod: where it starts, and what replaces the manifest's defaults. */
export interface PodOptions {
  /** Where the project (and its `.yoake/manifest.toml`) is searched from. */
  cwd: string;
  /** The top layer of the manifest cascade (what command-line options set). */
  overrides?: ManifestLayerInput;
  /**
   * What to do with a project manifest that asks for more than the safe defaults (hooks, MCP
   * servers, a base URL, wider scope, fewer approvals) and that the user has not trusted; default
   * `refuse`: `create` throws a `ProjectTrustError` before anything of it runs or is contacted.
   * See `ProjectTrustPolicy` and the README, "Project trust".
   */
  projectTrust?: ProjectTrustPolicy;
  /** For the manifest's `HOME` / `XDG_*`, the API key and the hooks' environment; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directories (absolute paths) the `bash` tool's sandbox hides behind an empty, read-only tmpfs,
   * besides what it always hides: what commands must neither read nor connect to though the
   * manifest's scope would show it (a fleet worker's home, its repository cache, the database's
   * socket directory). A writable scope directory inside one (the project itself) stays visible and
   * writable; the rest of the hidden directory is empty. Only the shell: the file tools keep to the
   * scope as always. Sub-agents inherit it. Default none.
   */
  shellHide?: readonly string[];
  /** Replaces the client made from the manifest's model (tests, embedders with their own transport). */
  client?: LlmClient;
  /** Where blobs (and later session logs) go; defaults to `podDataDir(projectRoot)`. */
  dataDir?: string;
  /** Tools of the embedder, offered beside the file tools. */
  tools?: readonly Tool[];
  /**
   * The session log to write (`<projectRoot>/.yoake/sessions/<id>.jsonl`): `"new"` (default), the
   * `"latest"` of the project, or one by id or unambiguous id prefix. Continuing one restores its
   * history, prunes and paused run from the log alone (see the README, "Sessions").
   */
  session?: SessionChoice;
  /** When an entry counts as written (see `Durability`); default `every` (fdatasync). */
  sessionDurability?: Durability;
  /**
   * Where session logs are kept; default the project's `.yoake/sessions/` files (a
   * `FileSessionStore` with the user's key and `sessionDurability`). A shared store (PostgreSQL, from
   * `@yoake/fleet`) lets the session continue on another machine.
   */
  sessionStore?: SessionStore;
  /** Where stored tool outputs go; default files under `dataDir`. */
  blobStore?: BlobStore;
  /** When and how the session is compacted (see the README, "Compaction"). */
  compaction?: CompactionSettings;
  /** Caps on the sub-agents the `task` tool starts (default `DEFAULT_TASK_LIMITS`). */
  taskLimits?: TaskLimits;
  /** Set by the `task` tool on the Pods it starts: the narrowed scope and how deep the child is. */
  child?: { scope: Scope; depth: number };
}

/**
 * How a Pod run (or its continuation after an answer) ended: the Worker's result; when the run
 * paused for approval, with the request it waits on.
 */
export type PodRunResult = WorkerResult & { permissionRequest?: PermissionRequest };
