import { homedir } from "node:os";
import path from "node:path";
import {
  BLOB_STORE_PRUNE_OPTIONS,
  BLOB_STORE_TOOL_OUTPUT,
  type BlobStore,
  createInspectTool,
  FsBlobStore,
  type ImagePart,
  type Item,
  type LlmClient,
  type MessageItem,
  pruneInterceptor,
  type RunOptions,
  systemMessage,
  type Tool,
  type Usage,
  userMessage,
  Worker,
  type WorkerResult,
} from "@yoake/llm-worker";
import { addUsage, toolDefinition, type Unsubscribe } from "@yoake/llm-worker/internal";
import type { Alert } from "./alert.js";
import { Approvals } from "./approval/approvals.js";
import type { PermissionDecision, PermissionRequest } from "./approval/permission.js";
import { type CompactionSettings, resolveCompactionSettings } from "./compaction/compaction-settings.js";
import { podDataDir } from "./data-dir.js";
import { resolveFileRef } from "./file-ref/resolver.js";
import { flattenSegments, parseSegments, type Segment } from "./file-ref/segments.js";
import { createShellHooks } from "./hooks/shell-hook.js";
import { findProjectRoot, loadManifest } from "./manifest/load.js";
import type { Manifest } from "./manifest/resolve.js";
import type { ManifestLayerInput } from "./manifest/schema.js";
import type { ProjectTrustPolicy } from "./manifest/trust-gate.js";
import type { McpServerStatus } from "./mcp/mcp-server-status.js";
import { McpSupervisor } from "./mcp/mcp-supervisor.js";
import { type Plan, PlanBook } from "./plan/plan.js";
import { planInterceptor } from "./plan/plan-interceptor.js";
import { clientForModel } from "./pod-client.js";
import { type PodEvent, PodEventHub, type PodEventOf, type PodEventType } from "./pod-events.js";
import { POD_INTERCEPTOR_NAME, podInterceptor } from "./pod-interceptor.js";
import type { CompactionResult } from "./pod-session/compaction-result.js";
import { openPodSession, type SessionChoice } from "./pod-session/open-pod-session.js";
import { PodSession, type RestoredSessionInfo } from "./pod-session/pod-session.js";
import { PodSharedState } from "./pod-state.js";
import type { NoteOutcome, NoteRole, PodStatus } from "./pod-status.js";
import { podTools } from "./pod-tools.js";
import type { Scope } from "./scope/rules.js";
import { ScopedFs } from "./scope/scoped-fs.js";
import { loadSessionKey } from "./session/session-key.js";
import type { Durability } from "./session/session-log.js";
import { listSessions, type SessionInfo } from "./session/sessions.js";
import { FileSessionStore } from "./session-store/file-session-store.js";
import type { SessionStore, StoredSessionInfo } from "./session-store/session-store.js";
import { CommandApprovals } from "./shell/command-approval.js";
import { openShell } from "./shell/open-shell.js";
import type { Shell } from "./shell/shell.js";
import { discoverSkills } from "./skills/skills.js";
import { DEFAULT_TASK_LIMITS, type TaskLimits } from "./subagents/task-limits.js";
import { createTaskParent } from "./subagents/task-parent.js";
import { ReadTracker } from "./tools/read-tracker.js";

/** Options of `Pod.run`: the run's signal, and images the client attached to the prompt. */
export interface PodRunOptions extends RunOptions {
  images?: readonly ImagePart[];
}

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

/**
 * One agent: a Worker configured by the manifest cascade, with file tools confined to the
 * manifest's scope, `@<path>` file references, approvals and the manifest's hooks.
 *
 * A run that reaches a call needing approval pauses: `run()` resolves with `status: "paused"`
 * and `permissionRequest`, and a `permission_request` event goes to every listener. Any client
 * answers with `respond(id, decision)`, which continues the run and resolves when it stops again
 * (finished, or paused at the next call needing approval). A new `run()` instead drops the
 * request: the unanswered calls get an error result, and `permission_resolved` says `abandoned`.
 */
export class Pod {
  private busy = false;
  /** Aborts the run or answer going now (`cancel()`); one per `run` / `respond` / `resume`. */
  private runAbort: AbortController | undefined;
  /** Usage of every run this Pod finished, for `status()`. */
  private usageOfEndedRuns: Usage = {};
  /** Usage so far of a paused run: its continuation reports it again, so it is not added twice. */
  private usageOfPausedRun: Usage = {};
  /** Notes given to `notify` while a run was going or paused, oldest first. */
  private queuedNotes: MessageItem[] = [];

  private constructor(
    readonly manifest: Manifest,
    /** The only way the Pod's tools and resolver touch the disk. */
    readonly fs: ScopedFs,
    readonly worker: Worker,
    /** Where the Pod keeps its blobs (`<dataDir>/blobs`). */
    readonly dataDir: string,
    private readonly state: PodSharedState,
    private readonly hub: PodEventHub,
    /** The session log, restore and compaction. */
    private readonly session: PodSession,
    /** The manifest's `[[mcp]]` servers, whose tools it adds to the Worker. */
    private readonly mcp: McpSupervisor,
    /** Runs the `bash` tool's commands; absent when the tool is off. */
    private readonly shell: Shell | undefined,
    /** The model's plan (`todo_write`), restored with the session and carried through compaction. */
    private readonly planBook: PlanBook,
  ) {}

  /** Loads the manifest cascade from `cwd` and builds the Pod it describes. */
  static async create(options: PodOptions): Promise<Pod> {
    const env = options.env ?? process.env;
    const manifest = await loadManifest({
      cwd: options.cwd,
      env,
      ...(options.overrides !== undefined && { overrides: options.overrides }),
      ...(options.projectTrust !== undefined && { projectTrust: options.projectTrust }),
    });
    const fs = await ScopedFs.create(options.child?.scope ?? manifest.scope, {
      allowHardLinks: manifest.scope.hardLinks,
    });
    const client = options.client ?? clientForModel(manifest.model, env);
    const dataDir = options.dataDir ?? podDataDir(manifest.projectRoot, env);
    const { shell, warnings: shellWarnings } = await openShell(manifest, options.cwd, env);
    // Told with the manifest's warnings, which the user reads at start.
    manifest.warnings.push(...shellWarnings);
    const commands =
      shell && new CommandApprovals(manifest.shell.alwaysAsk, shell.sandboxed, manifest.shell.ask);
    const state = new PodSharedState(
      new Approvals(manifest.tools.approve, fs, manifest.limits.toolOutputBytes, commands),
      new ReadTracker(),
    );
    // The hooks raise alerts through the hub, which needs the Worker: they meet through this slot.
    let hub: PodEventHub | undefined;
    const hooks = createShellHooks(manifest.hooks, {
      projectRoot: manifest.projectRoot,
      env,
      ...(manifest.model.apiKeyEnv !== undefined && { keyVariables: new Set([manifest.model.apiKeyEnv]) }),
      alert: (alert) => hub?.emit({ type: "alert", ...alert }),
    });
    const compaction = resolveCompactionSettings(options.compaction ?? {}, manifest.model.contextWindow);
    const blobStore = options.blobStore ?? new FsBlobStore(path.join(dataDir, "blobs"));
    // The user's key, kept outside the project, seals and verifies every line of the session log.
    const sessionStore =
      options.sessionStore ??
      new FileSessionStore(manifest.projectRoot, {
        key: await loadSessionKey(env),
        ...(options.sessionDurability !== undefined && { durability: options.sessionDurability }),
      });
    // Last, so a Pod that cannot be built (no key, a bad manifest) leaves no log behind.
    const opened = await openPodSession(manifest, options.cwd, options.session ?? "new", sessionStore);
    const plan = new PlanBook(opened.restored?.plan);
    const skills = await discoverSkills(manifest.projectRoot, env);
    // A skill folder that cannot be read is told where the manifest's own warnings are.
    manifest.warnings.push(...skills.warnings);
    const taskLimits = options.taskLimits ?? DEFAULT_TASK_LIMITS;
    const delegates = (options.child?.depth ?? 0) < taskLimits.maxDepth;
    const tasks = createTaskParent({
      options,
      manifest,
      sessionStore,
      limits: taskLimits,
      create: Pod.create,
      emit: (event) => hub?.emit(event),
    });
    const tools = [
      ...podTools(fs, manifest, state.readTracker, {
        ...(shell !== undefined && { shell }),
        plan,
        skills: skills.skills,
        ...(delegates && { tasks }),
      }),
      ...(options.tools ?? []),
    ];
    // The policy measured for a Worker with a BlobStore (see BLOB_STORE_PRUNE_OPTIONS).
    const prune = pruneInterceptor({
      ...BLOB_STORE_PRUNE_OPTIONS,
      prunedCallIds: opened.restored?.prunedCallIds ?? [],
    });
    const session = new PodSession(opened, {
      manifest,
      cwd: options.cwd,
      fs,
      client,
      readTracker: state.readTracker,
      prune,
      compaction,
      sessionStore,
      // As the Worker lists them (inspect first): what a compaction sends before any request did.
      toolDefinitions: [createInspectTool(blobStore), ...tools].map((t) => toolDefinition(t)),
      emit: (event) => hub?.emit(event),
      plan,
    });
    const worker = new Worker({
      client,
      system: manifest.instructions.systemPrompt,
      tools,
      // The session's interceptors go first (the log is synced before anything else acts) and
      // around prune (compaction measures before it, its prunes are logged after it).
      interceptors: [
        session.first,
        prune,
        session.afterPrune,
        podInterceptor(state),
        planInterceptor(plan),
        state.approvals.verdictInterceptor(),
      ],
      hooks,
      blobStore,
      toolOutput: BLOB_STORE_TOOL_OUTPUT,
      maxTurns: manifest.limits.turns,
      generation: manifest.generation,
      ...(opened.restored !== undefined && { history: opened.restored.history }),
      // Calls a crash left unanswered are answered as interrupted, not as a pause not resumed.
      ...(opened.restored?.lastRun.state === "interrupted" && { restoredRun: "interrupted" as const }),
    });
    hub = new PodEventHub(worker);
    session.attach(worker);
    hub.on("alert", (alert) => session.recordAlert(alert));
    plan.onChange((current) => hub?.emit({ type: "plan_changed", plan: current }));
    for (const message of skills.warnings)
      hub.emit({ type: "alert", level: "warn", message, source: "skills" });
    // Last, once alerts have somewhere to go; the servers start alongside the first request.
    // A sub-agent works with the Pod's own tools only: it starts no servers of its own.
    const mcp = new McpSupervisor(options.child === undefined ? manifest.mcp : [], {
      tools: worker,
      disabledTools: manifest.tools.disable,
      env,
      alert: (alert) => hub?.emit({ type: "alert", ...alert }),
    });
    await mcp.start();
    return new Pod(manifest, fs, worker, dataDir, state, hub, session, mcp, shell, plan);
  }

  get history(): readonly Item[] {
    return this.worker.history;
  }

  /** The session log this Pod writes to; it changes when the session is compacted. */
  get sessionId(): string {
    return this.session.id;
  }

  /** How the session this Pod continues had left off (`session: "latest"` or an id), else undefined. */
  get restored(): RestoredSessionInfo | undefined {
    return this.session.restored;
  }

  /** The sessions of the project found from `cwd` (as `Pod.create` finds it), oldest first. */
  static async listSessions(
    cwd: string,
    env: Readonly<Record<string, string | undefined>> = process.env,
  ): Promise<SessionInfo[]> {
    const home = path.resolve(env.HOME ?? homedir());
    return listSessions(await findProjectRoot(cwd, home));
  }

  /** The sessions of this Pod's project (of its session store), oldest first. */
  listSessions(): Promise<StoredSessionInfo[]> {
    return this.session.listSessions();
  }

  /** The model's latest plan (`todo_write`), restored with the session; a `plan_changed` event follows each new one. */
  get plan(): Plan | undefined {
    return this.planBook.current;
  }

  /** The request a paused run waits on, if any. */
  get pendingPermission(): PermissionRequest | undefined {
    return this.state.approvals.pending;
  }

  /** Listens for one event type (`alert`, `permission_request`, any Worker event); returns the unsubscribe function. */
  on<T extends PodEventType>(type: T, handler: (event: PodEventOf<T>) => void): Unsubscribe {
    return this.hub.on(type, handler);
  }

  /** Listens for every event, Worker and Pod alike, in order. */
  listen(listener: (event: PodEvent) => void): Unsubscribe {
    return this.hub.listen(listener);
  }

  /** Every event from now on, for `for await`; breaking out of the loop unsubscribes. */
  events(): AsyncIterableIterator<PodEvent> {
    return this.hub.events();
  }

  /**
   * Submits input and runs until the model is done or a call waits for approval. A string is
   * plain input: its `@<path>` tokens are file references (`parseSegments`); pass segments to
   * send text verbatim. Each reference is resolved before the submit: an attached file stays
   * `@path` in the user message, one that cannot be (out of scope, missing, binary) raises a
   * warning alert and only its placeholder reaches the model.
   * `images` (pasted or attached by a client) follow the prompt like an `@image` reference.
   */
  async run(input: string | readonly Segment[], options: PodRunOptions = {}): Promise<PodRunResult> {
    const runOptions = this.claim(options);
    let result: WorkerResult;
    try {
      const segments = typeof input === "string" ? parseSegments(input) : input;
      await this.session.beginRun(segments, flattenSegments(segments), runOptions.signal);
      this.abandonPendingPermission();
      // This run replaces a paused one for good: what that one used is final.
      this.usageOfEndedRuns = addUsage(this.usageOfEndedRuns, this.usageOfPausedRun);
      this.usageOfPausedRun = {};
      // Notes given while the previous run was paused follow this prompt, with its files.
      const notes = this.takeQueuedNotes();
      const files = await this.resolveFileRefs(segments);
      const images = options.images?.length ? [userMessage("[Image attached]", options.images)] : [];
      this.state.stashFileRefs([...files.items, ...images, ...notes]);
      try {
        result = await this.worker.run(flattenSegments(segments, files.attached), runOptions);
      } finally {
        // A run that failed before its submit must not hand its files to the next one.
        const unsubmitted = this.state.drainFileRefs();
        // ... but its notes are still the user's: they wait for the next chance.
        if (unsubmitted.length > 0) this.queuedNotes.unshift(...notes);
      }
      await this.session.endRun(result);
    } finally {
      this.release();
    }
    return this.settle(result);
  }

  /**
   * Answers the pending permission request and continues the run: allowed, the call runs;
   * denied, the model reads the reason as the call's result; `allow_session` also lets every
   * later call of that tool run without asking. Throws if `id` is not the pending request.
   */
  async respond(id: string, decision: PermissionDecision, options: RunOptions = {}): Promise<PodRunResult> {
    const runOptions = this.claim(options);
    let result: WorkerResult;
    try {
      const request = this.state.approvals.decide(id, decision);
      this.hub.emit({
        type: "permission_resolved",
        id,
        callId: request.callId,
        tool: request.tool,
        decision,
      });
      await this.session.beginResume(runOptions.signal);
      result = await this.worker.resume(runOptions);
      await this.session.endRun(result);
    } finally {
      this.release();
    }
    return this.settle(result);
  }

  /**
   * Continues a run a hook paused (`pause`, `yield`) without a new user message. A run waiting
   * for approval is continued by `respond` instead: this throws then, and when nothing is paused.
   * After a restore it continues the run the log left paused or interrupted: open tool calls run
   * (a call that needs approval asks again), else the next request is sent.
   */
  async resume(options: RunOptions = {}): Promise<PodRunResult> {
    this.assertFree();
    const request = this.state.approvals.pending;
    if (request !== undefined)
      throw new Error(`the run waits for an answer to permission request ${request.id}: respond to it`);
    if (!this.worker.isPaused && !this.session.resumable) throw new Error("there is no paused run to resume");
    const runOptions = this.claim(options);
    let result: WorkerResult;
    try {
      // A restored run that stopped before a request has no pause in the Worker: a run with no
      // new input sends that request.
      const continuesRequest = !this.worker.isPaused;
      await this.session.beginResume(runOptions.signal);
      result = continuesRequest
        ? await this.worker.run([], runOptions)
        : await this.worker.resume(runOptions);
      await this.session.endRun(result);
    } finally {
      this.release();
    }
    return this.settle(result);
  }

  /**
   * Stops the run (or the answer being carried out) going now: the model's stream and the running
   * tools are aborted, every tool call keeps a result, and `run()` resolves `cancelled`. Returns
   * false when nothing is running; a paused run is not (answer it, or start a new run).
   */
  cancel(): boolean {
    if (this.runAbort === undefined || this.runAbort.signal.aborted) return false;
    this.runAbort.abort(new Error("cancelled"));
    return true;
  }

  /**
   * Adds a message to history without starting a turn; the model reads it with its next request.
   * During a run (or a pause) the Worker's history only grows at its own steps, so the note waits
   * (`queued`) and is added when the run stops, or right after the prompt of a new run that
   * replaces a paused one. A `history_changed` event follows every addition.
   */
  notify(text: string, role: NoteRole = "user"): NoteOutcome {
    this.queuedNotes.push(role === "user" ? userMessage(text) : systemMessage(text));
    if (this.busy || this.worker.isRunning || this.worker.isPaused) return "queued";
    this.addQueuedNotes();
    return "added";
  }

  /** What the Pod is doing, with its model, the usage so far and the request a pause waits on. */
  status(): PodStatus {
    const { ref, scheme, id, contextWindow } = this.manifest.model;
    const pendingPermission = this.state.approvals.pending;
    return {
      state:
        this.busy || this.worker.isRunning
          ? "running"
          : this.worker.isPaused || this.session.resumable
            ? "paused"
            : "idle",
      projectRoot: this.manifest.projectRoot,
      sessionId: this.session.id,
      model: {
        ...(ref !== undefined && { ref }),
        scheme,
        id,
        ...(contextWindow !== undefined && { contextWindow }),
      },
      usage: addUsage(this.usageOfEndedRuns, this.usageOfPausedRun),
      ...(pendingPermission !== undefined && { pendingPermission }),
      queuedNotes: this.queuedNotes.length,
    };
  }

  /**
   * Summarizes the session and continues in a new one linked to it (see the README,
   * "Compaction"): the history becomes the summary and the files read so far, read again. Throws
   * while a run is going or paused, when there is nothing to compact, and when the summary
   * request fails; `cancel()` stops it. A success turns automatic compaction back on.
   */
  async compact(options: RunOptions = {}): Promise<CompactionResult> {
    this.assertFree();
    if (this.worker.isPaused || this.state.approvals.pending !== undefined)
      throw new Error("a run is paused: answer it, resume it or start a new run before compacting");
    const runOptions = this.claim(options);
    try {
      return await this.session.compactNow(runOptions.signal);
    } finally {
      this.release();
    }
  }

  /** The manifest's `[[mcp]]` servers, in manifest order: state, tool count, and why one failed. */
  mcpServers(): McpServerStatus[] {
    return this.mcp.servers();
  }

  /**
   * Kills the commands still running (background ones too), stops the MCP servers, then flushes and closes the session log. Cancel a run going on and
   * wait for it first: the log takes nothing after this, so a run could not go on.
   */
  async close(): Promise<void> {
    await this.shell?.close();
    await this.mcp.close();
    await this.session.close();
  }

  private assertFree(): void {
    if (this.busy || this.worker.isRunning)
      throw new Error("the Pod is already running; wait for the run to end");
  }

  /**
   * One run or answer at a time: a second caller is told at once instead of queueing behind a
   * pause. Returns the options to run with: the caller's signal joined with the Pod's own, which
   * `cancel()` aborts.
   */
  private claim(options: RunOptions): RunOptions {
    this.assertFree();
    this.busy = true;
    const abort = new AbortController();
    this.runAbort = abort;
    const signal =
      options.signal === undefined ? abort.signal : AbortSignal.any([options.signal, abort.signal]);
    return { ...options, signal };
  }

  private release(): void {
    this.busy = false;
    this.runAbort = undefined;
  }

  private takeQueuedNotes(): MessageItem[] {
    const notes = this.queuedNotes;
    this.queuedNotes = [];
    return notes;
  }

  /** Appends the queued notes to history; only while no run is going or paused. */
  private addQueuedNotes(): void {
    const notes = this.takeQueuedNotes();
    if (notes.length === 0) return;
    this.worker.replaceHistory([...this.worker.history, ...notes]);
    this.session.historyGrew();
    this.hub.emit({ type: "history_changed", reason: "notify", added: notes });
  }

  /** Resolves each distinct reference in order of appearance; failures become alerts. */
  private async resolveFileRefs(
    segments: readonly Segment[],
  ): Promise<{ items: Item[]; attached: Set<string> }> {
    const items: Item[] = [];
    const seen = new Set<string>();
    const attached = new Set<string>();
    for (const segment of segments) {
      if (segment.type !== "file_ref" || seen.has(segment.path)) continue;
      seen.add(segment.path);
      const resolved = await resolveFileRef(this.fs, segment.path, this.manifest.limits.toolOutputBytes);
      if (resolved.ok) {
        items.push(resolved.item);
        attached.add(segment.path);
        // The model sees the whole file: editing it needs no read_file first.
        if (resolved.wholeFile)
          this.state.readTracker.record(resolved.wholeFile.realPath, resolved.wholeFile.bytes);
      } else this.alert({ level: "warn", message: resolved.message, source: "file_ref" });
    }
    return { items, attached };
  }

  /** After the run returned, so a listener may answer the request at once (the Pod is free again). */
  private settle(result: WorkerResult): PodRunResult {
    // A continuation's usage includes the part before the pause: it replaces, never adds to, that part.
    if (result.status === "paused") this.usageOfPausedRun = result.usage;
    else {
      this.usageOfEndedRuns = addUsage(this.usageOfEndedRuns, result.usage);
      this.usageOfPausedRun = {};
    }
    if (!this.worker.isPaused) this.addQueuedNotes();
    const request = this.state.approvals.pending;
    if (result.status !== "paused" || result.by !== POD_INTERCEPTOR_NAME || request === undefined)
      return result;
    this.hub.emit({ type: "permission_request", ...request });
    return { ...result, permissionRequest: request };
  }

  private abandonPendingPermission(): void {
    const request = this.state.approvals.abandon();
    if (request === undefined) return;
    this.hub.emit({
      type: "permission_resolved",
      id: request.id,
      callId: request.callId,
      tool: request.tool,
      decision: "abandoned",
    });
  }

  private alert(alert: Alert): void {
    this.hub.emit({ type: "alert", ...alert });
  }
}
