import path from "node:path";
import {
  FsBlobStore,
  type Item,
  type LlmClient,
  pruneInterceptor,
  type RunOptions,
  type Tool,
  type Unsubscribe,
  Worker,
  type WorkerResult,
} from "@yoake/llm-worker";
import type { Alert } from "./alert.js";
import { Approvals } from "./approval/approvals.js";
import type { PermissionDecision, PermissionRequest } from "./approval/permission.js";
import { podDataDir } from "./data-dir.js";
import { resolveFileRef } from "./file-ref/resolver.js";
import { flattenSegments, parseSegments, type Segment } from "./file-ref/segments.js";
import { createShellHooks } from "./hooks/shell-hook.js";
import { loadManifest } from "./manifest/load.js";
import type { Manifest } from "./manifest/resolve.js";
import type { ManifestLayerInput } from "./manifest/schema.js";
import { clientForModel } from "./pod-client.js";
import { type PodEvent, PodEventHub, type PodEventOf, type PodEventType } from "./pod-events.js";
import { POD_INTERCEPTOR_NAME, podInterceptor } from "./pod-interceptor.js";
import { PodSharedState } from "./pod-state.js";
import { podTools } from "./pod-tools.js";
import { ScopedFs } from "./scope/scoped-fs.js";
import { ReadTracker } from "./tools/read-tracker.js";

export interface PodOptions {
  /** Where the project (and its `.yoake/manifest.toml`) is searched from. */
  cwd: string;
  /** The top layer of the manifest cascade (what command-line options set). */
  overrides?: ManifestLayerInput;
  /** For the manifest's `HOME` / `XDG_*`, the API key and the hooks' environment; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Replaces the client made from the manifest's model (tests, embedders with their own transport). */
  client?: LlmClient;
  /** Where blobs (and later session logs) go; defaults to `podDataDir(projectRoot)`. */
  dataDir?: string;
  /** Tools of the embedder, offered beside the file tools. */
  tools?: readonly Tool[];
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

  private constructor(
    readonly manifest: Manifest,
    /** The only way the Pod's tools and resolver touch the disk. */
    readonly fs: ScopedFs,
    readonly worker: Worker,
    /** Where the Pod keeps its blobs (`<dataDir>/blobs`). */
    readonly dataDir: string,
    private readonly state: PodSharedState,
    private readonly hub: PodEventHub,
  ) {}

  /** Loads the manifest cascade from `cwd` and builds the Pod it describes. */
  static async create(options: PodOptions): Promise<Pod> {
    const env = options.env ?? process.env;
    const manifest = await loadManifest({
      cwd: options.cwd,
      env,
      ...(options.overrides !== undefined && { overrides: options.overrides }),
    });
    const fs = await ScopedFs.create(manifest.scope);
    const client = options.client ?? clientForModel(manifest.model, env);
    const dataDir = options.dataDir ?? podDataDir(manifest.projectRoot, env);
    const state = new PodSharedState(
      new Approvals(manifest.tools.approve, fs, manifest.limits.toolOutputBytes),
      new ReadTracker(),
    );
    // The hooks raise alerts through the hub, which needs the Worker: they meet through this slot.
    let hub: PodEventHub | undefined;
    const hooks = createShellHooks(manifest.hooks, {
      projectRoot: manifest.projectRoot,
      env,
      alert: (alert) => hub?.emit({ type: "alert", ...alert }),
    });
    const worker = new Worker({
      client,
      system: manifest.instructions.systemPrompt,
      tools: [...podTools(fs, manifest, state.readTracker), ...(options.tools ?? [])],
      interceptors: [pruneInterceptor(), podInterceptor(state), state.approvals.verdictInterceptor()],
      hooks,
      blobStore: new FsBlobStore(path.join(dataDir, "blobs")),
      maxTurns: manifest.limits.turns,
      generation: manifest.generation,
    });
    hub = new PodEventHub(worker);
    return new Pod(manifest, fs, worker, dataDir, state, hub);
  }

  get history(): readonly Item[] {
    return this.worker.history;
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
   * send text verbatim. Each reference is resolved before the submit; one that cannot be (out of
   * scope, missing, binary) raises a warning alert and only its placeholder reaches the model.
   */
  async run(input: string | readonly Segment[], options: RunOptions = {}): Promise<PodRunResult> {
    this.claim();
    let result: WorkerResult;
    try {
      const segments = typeof input === "string" ? parseSegments(input) : input;
      this.abandonPendingPermission();
      this.state.stashFileRefs(await this.resolveFileRefs(segments));
      try {
        result = await this.worker.run(flattenSegments(segments), options);
      } finally {
        // A run that failed before its submit must not hand its files to the next one.
        this.state.drainFileRefs();
      }
    } finally {
      this.busy = false;
    }
    return this.settle(result);
  }

  /**
   * Answers the pending permission request and continues the run: allowed, the call runs;
   * denied, the model reads the reason as the call's result; `allow_session` also lets every
   * later call of that tool run without asking. Throws if `id` is not the pending request.
   */
  async respond(id: string, decision: PermissionDecision, options: RunOptions = {}): Promise<PodRunResult> {
    this.claim();
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
      result = await this.worker.resume(options);
    } finally {
      this.busy = false;
    }
    return this.settle(result);
  }

  /** One run or answer at a time: a second caller is told at once instead of queueing behind a pause. */
  private claim(): void {
    if (this.busy || this.worker.isRunning)
      throw new Error("the Pod is already running; wait for the run to end");
    this.busy = true;
  }

  /** Resolves each distinct reference in order of appearance; failures become alerts. */
  private async resolveFileRefs(segments: readonly Segment[]): Promise<Item[]> {
    const items: Item[] = [];
    const seen = new Set<string>();
    for (const segment of segments) {
      if (segment.type !== "file_ref" || seen.has(segment.path)) continue;
      seen.add(segment.path);
      const resolved = await resolveFileRef(this.fs, segment.path, this.manifest.limits.toolOutputBytes);
      if (resolved.ok) {
        items.push(resolved.item);
        // The model sees the whole file: editing it needs no read_file first.
        if (resolved.wholeFile)
          this.state.readTracker.record(resolved.wholeFile.realPath, resolved.wholeFile.bytes);
      } else this.alert({ level: "warn", message: resolved.message, source: "file_ref" });
    }
    return items;
  }

  /** After the run returned, so a listener may answer the request at once (the Pod is free again). */
  private settle(result: WorkerResult): PodRunResult {
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
