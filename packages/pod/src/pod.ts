import { homedir } from "node:os";
import path from "node:path";
import {
  type Item,
  type MessageItem,
  type RunOptions,
  systemMessage,
  userMessage,
  type Worker,
  type WorkerResult,
} from "@yoake/llm-worker";
import type { Unsubscribe } from "@yoake/llm-worker/internal";
import type { PermissionDecision, PermissionRequest } from "./approval/permission.js";
import type { CompactionResult } from "./compaction/compaction-result.js";
import { flattenSegments, parseSegments, type Segment } from "./file-ref/segments.js";
import { findProjectRoot } from "./manifest/load.js";
import type { Manifest } from "./manifest/resolve.js";
import type { McpServerStatus } from "./mcp/mcp-server-status.js";
import type { McpSupervisor } from "./mcp/mcp-supervisor.js";
import type { Plan, PlanBook } from "./plan/plan.js";
import type { Alert } from "./pod/alert.js";
import { assemblePod, type PodParts } from "./pod/assemble.js";
import type { PodEvent, PodEventHub, PodEventOf, PodEventType } from "./pod/events.js";
import { attachFileRefs } from "./pod/file-refs.js";
import { POD_INTERCEPTOR_NAME } from "./pod/interceptor.js";
import type { PodOptions, PodRunOptions, PodRunResult } from "./pod/options.js";
import { RunUsage } from "./pod/run-usage.js";
import type { PodSession, RestoredSessionInfo } from "./pod/session.js";
import type { PodSharedState } from "./pod/shared-state.js";
import type { NoteOutcome, NoteRole, PodStatus } from "./pod/status.js";
import type { ScopedFs } from "./scope/scoped-fs.js";
import type { StoredSessionInfo } from "./session-log/session-store.js";
import { listSessions, type SessionInfo } from "./session-log/sessions.js";
import type { Shell } from "./shell/shell.js";

export type { PodOptions, PodRunOptions, PodRunResult } from "./pod/options.js";

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
  /** What the runs used, for `status()`. */
  private readonly usage = new RunUsage();
  /** Notes given to `notify` while a run was going or paused, oldest first. */
  private queuedNotes: MessageItem[] = [];

  /** The manifest cascade this Pod was built from, resolved. */
  readonly manifest: Manifest;
  /** The only way the Pod's tools and resolver touch the disk. */
  readonly fs: ScopedFs;
  /** The Worker, for its history and its event API; drive runs through the Pod. */
  readonly worker: Worker;
  /** Where the Pod keeps its blobs (`<dataDir>/blobs`). */
  readonly dataDir: string;
  private readonly state: PodSharedState;
  private readonly hub: PodEventHub;
  /** The session log, restore and compaction. */
  private readonly session: PodSession;
  /** The manifest's `[[mcp]]` servers, whose tools it adds to the Worker. */
  private readonly mcp: McpSupervisor;
  /** Runs the `bash` tool's commands; absent when the tool is off. */
  private readonly shell: Shell | undefined;
  /** The model's plan (`todo_write`), restored with the session and carried through compaction. */
  private readonly planBook: PlanBook;

  private constructor(parts: PodParts) {
    this.manifest = parts.manifest;
    this.fs = parts.fs;
    this.worker = parts.worker;
    this.dataDir = parts.dataDir;
    this.state = parts.state;
    this.hub = parts.hub;
    this.session = parts.session;
    this.mcp = parts.mcp;
    this.shell = parts.shell;
    this.planBook = parts.plan;
  }

  /** Loads the manifest cascade from `cwd` and builds the Pod it describes (see `assemblePod`). */
  static async create(options: PodOptions): Promise<Pod> {
    return new Pod(await assemblePod(options, Pod.create));
  }

  /** The conversation so far (the Worker's history). */
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

  /**
   * The history of another session of this Pod's store, read from its verified log: a sub-agent's
   * (its id is in the `task` result), for a UI showing a restored conversation. Rejects when the
   * log cannot be read or verified.
   */
  sessionHistory(sessionId: string): Promise<Item[]> {
    return this.session.sessionHistory(sessionId);
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
      // Resolved first, so the log records the text the model gets: an attached file as `@path`,
      // only one that could not be attached as its placeholder. Their alerts follow the input.
      const refAlerts: Alert[] = [];
      const files = await attachFileRefs(
        this.fs,
        segments,
        this.manifest.limits.toolOutputBytes,
        this.state.readTracker,
        (alert) => refAlerts.push(alert),
      );
      const text = flattenSegments(segments, files.attached);
      await this.session.beginRun(segments, text, runOptions.signal);
      for (const alert of refAlerts) this.alert(alert);
      this.abandonPendingPermission();
      this.usage.closePausedRun();
      // Notes given while the previous run was paused follow this prompt, with its files.
      const notes = this.takeQueuedNotes();
      const images = options.images?.length ? [userMessage("[Image attached]", options.images)] : [];
      this.state.stashFileRefs([...files.items, ...images, ...notes]);
      try {
        result = await this.worker.run(text, runOptions);
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
      usage: this.usage.total,
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

  /** After the run returned, so a listener may answer the request at once (the Pod is free again). */
  private settle(result: WorkerResult): PodRunResult {
    this.usage.record(result);
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
