import type { ImagePart, Item } from "@yoake/llm-worker";
import type { Unsubscribe } from "@yoake/llm-worker/internal";
import type {
  PermissionDecision,
  PermissionRequest,
  PodEvent,
  PodEventOf,
  PodEventType,
  PodRunResult,
  Segment,
} from "@yoake/pod";
import { type PodClient, PodProtocolError, type WireEvent, type WireStatus } from "@yoake/pod/protocol";
import { CliError } from "../cli-error.js";
import { PodEventsFromWire } from "./pod-events-from-wire.js";

/** What a run on a served Pod takes: the signal cancels it, through the protocol. */
export interface RemoteRunOptions {
  signal?: AbortSignal;
  images?: readonly ImagePart[];
}

type Listener = (event: PodEvent) => void;

/**
 * A Pod served by `yoake serve`, reached over its socket, shaped like the in-process Pod where the
 * terminal UI, headless runs and the ACP agent read it: `run` and `respond` resolve with how the
 * run stopped, events arrive as Pod events, `history` is the conversation so far. So the UI code
 * does not fork between the two deployments.
 *
 * Cancelling has one path here, as in-process: the run's signal. The in-process Pod aborts its
 * Worker with it; this one turns it into the protocol's `cancel`, which the Pod applies to
 * whichever client's run is going. Leaving is not cancelling: the served Pod's runs go on when
 * this client closes (`runsOnWhenLeft`), so a UI leaving does not abort its run's signal.
 *
 * Events are handled one at a time, in order: a `run_end` waits until history is fetched again
 * (the wire does not carry the run's items), so that whoever reads `history` on it sees the run.
 */
export class RemotePod {
  private readonly listeners = new Set<{ type: PodEventType | undefined; listener: Listener }>();
  private readonly fromWire = new PodEventsFromWire();
  private items: readonly Item[] = [];
  private pending: PermissionRequest | undefined;
  private currentSession: string | undefined;
  private readonly status: WireStatus;
  /** The results of runs started by requests, by run number, until their caller takes them. */
  private readonly ended = new Map<number, PodRunResult>();
  private readonly waiting = new Map<number, RunWaiter>();
  /** Connected clients that answer permission requests: from the greeting, then `approvers` events. */
  private approverCount: number;
  /** The number of the latest run this client saw end, for `answeredElsewhere`. */
  private latestRun = 0;
  private processing: Promise<void> = Promise.resolve();
  /** A run is going in the served Pod, whoever started it. */
  private runGoing: boolean;
  private shutdownReason: string | undefined;
  /** Told once when the connection to the served Pod is lost: `yoake serve` stopped or died. */
  private readonly goneListeners = new Set<(why: string) => void>();

  private constructor(private readonly client: PodClient) {
    this.status = client.hello.status;
    this.pending = this.status.pendingPermission;
    this.currentSession = this.status.sessionId;
    this.runGoing = this.status.state === "running";
    this.approverCount = this.status.approvers;
    client.listen((event) => {
      this.processing = this.processing.then(() => this.receive(event));
    });
    void client.closed.then(() => {
      this.processing = this.processing.then(() => this.disconnected());
    });
  }

  /** Attaches to the Pod behind `client` (greeted) and reads the conversation so far. */
  static async attach(client: PodClient): Promise<RemotePod> {
    const pod = new RemotePod(client);
    pod.items = (await client.history()).items;
    return pod;
  }

  /** The project the served Pod works on, and its model (no prices: they stay with the Pod). */
  get manifest(): { readonly projectRoot: string; readonly model: WireStatus["model"] } {
    return this.status;
  }
  get history(): readonly Item[] {
    return this.items;
  }
  get sessionId(): string | undefined {
    return this.currentSession;
  }
  get pendingPermission(): PermissionRequest | undefined {
    return this.pending;
  }
  /** The served Pod's runs go on when this client leaves: leaving must not cancel them. */
  readonly runsOnWhenLeft = true;

  /** What the served Pod warned about when it started (no sandbox, a model not in the catalogue). */
  get warnings(): readonly string[] {
    return this.client.hello.warnings;
  }

  /** The Pod's clients that can answer a permission request now (a terminal UI, an editor). */
  get approvers(): number {
    return this.approverCount;
  }

  /** A run is going in the served Pod, whoever started it: from the greeting's status, then from `run_start` / `run_end`. */
  get runInProgress(): boolean {
    return this.runGoing;
  }

  async fetchHistory(): Promise<readonly Item[]> {
    this.items = (await this.client.history()).items;
    return this.items;
  }

  run(input: string | readonly Segment[], options: RemoteRunOptions = {}): Promise<PodRunResult> {
    return this.drive(() => this.client.run(input, options.images), options.signal);
  }

  respond(id: string, decision: PermissionDecision, options: RemoteRunOptions = {}): Promise<PodRunResult> {
    return this.drive(() => this.client.respond(id, decision), options.signal);
  }

  /**
   * The pending permission request answered by another client of the served Pod: resolves with
   * how the run went on from there, or undefined when no client that can answer is connected (at
   * once, or as soon as the last one leaves): the request then stays pending in the served Pod.
   * The signal cancels the run, as for `run`.
   */
  answeredElsewhere(options: RemoteRunOptions = {}): Promise<PodRunResult | undefined> {
    return this.awaitRun(this.latestRun + 1, options.signal, { unlessNobodyAnswers: true });
  }

  /**
   * Cancels the run going in the served Pod that this client did not start (another client's, or
   * one whose client went away): there is no signal of this client's to abort. False when none goes.
   */
  cancelServedRun(): boolean {
    if (!this.runGoing) return false;
    void this.client.cancel().catch(() => undefined);
    return true;
  }

  listen(listener: Listener): () => void {
    return this.add(undefined, listener);
  }

  on<T extends PodEventType>(type: T, handler: (event: PodEventOf<T>) => void): Unsubscribe {
    return this.add(type, handler as Listener);
  }

  /**
   * Calls `listener` once the connection to the served Pod is lost (`yoake serve` stopped or
   * died), with what happened and how to go on; at once when it is lost already.
   */
  onGone(listener: (why: string) => void): Unsubscribe {
    if (!this.client.isOpen) {
      listener(this.goneError().message);
      return () => undefined;
    }
    this.goneListeners.add(listener);
    return () => this.goneListeners.delete(listener);
  }

  /** Leaves the served Pod: its run, if any, goes on. */
  close(): Promise<void> {
    this.client.close();
    return Promise.resolve();
  }

  private async drive(start: () => Promise<{ run: number }>, signal: AbortSignal | undefined) {
    let started: { run: number };
    // Not "the served Pod refused": nobody is there to refuse, and the person needs the way on.
    if (!this.client.isOpen) throw this.goneError();
    try {
      started = await start();
    } catch (error) {
      throw refusal(error);
    }
    // Never undefined: only a wait for another client's answer gives up.
    return (await this.awaitRun(started.run, signal)) as PodRunResult;
  }

  private async awaitRun(
    run: number,
    signal: AbortSignal | undefined,
    { unlessNobodyAnswers = false } = {},
  ): Promise<PodRunResult | undefined> {
    const cancel = (): void => void this.client.cancel().catch(() => undefined);
    if (signal?.aborted === true) cancel();
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      const result = await new Promise<PodRunResult | undefined>((resolve, reject) => {
        const ended = this.ended.get(run);
        if (ended !== undefined) {
          resolve(ended);
          return;
        }
        if (!this.client.isOpen) {
          reject(this.goneError());
          return;
        }
        if (unlessNobodyAnswers && this.approverCount === 0) {
          resolve(undefined);
          return;
        }
        this.waiting.set(run, { resolve, reject, unlessNobodyAnswers });
      });
      if (result === undefined) return undefined;
      this.ended.delete(run);
      return result.status === "paused" && this.pending !== undefined
        ? { ...result, permissionRequest: this.pending }
        : result;
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  }

  private async receive(wire: WireEvent): Promise<void> {
    if (wire.event === "shutdown") {
      this.shutdownReason = wire.reason;
      return;
    }
    if (wire.event === "approvers") {
      this.approverCount = wire.approvers;
      if (wire.approvers === 0) this.nobodyAnswers();
      return;
    }
    if (wire.event === "run_end") await this.fetchHistory().catch(() => undefined);
    const event = this.fromWire.convert(wire, this.items);
    if (wire.event === "history") {
      this.items = wire.items;
      if (wire.sessionId !== undefined) this.currentSession = wire.sessionId;
    }
    if (event === undefined) return;
    if (event.type === "permission_request") {
      const { type: _type, ...request } = event;
      this.pending = request;
    }
    if (event.type === "permission_resolved" && this.pending?.id === event.id) this.pending = undefined;
    if (event.type === "run_start") this.runGoing = true;
    if (event.type === "run_end") this.runGoing = false;
    this.deliver(event);
    if (wire.event === "run_end" && wire.run !== undefined && event.type === "run_end") {
      const { run } = wire;
      const { result } = event;
      // The Pod announces a paused run's permission request after its `run_end`, and the events
      // it sent before answering the history request above are queued by now: the run is settled
      // for its caller once they are handled, so that a paused result carries its request.
      this.processing = this.processing.then(() => this.settle(run, result));
    }
  }

  private settle(run: number, result: PodRunResult): void {
    this.latestRun = Math.max(this.latestRun, run);
    const waiter = this.waiting.get(run);
    if (waiter === undefined) {
      this.ended.set(run, result);
      return;
    }
    this.waiting.delete(run);
    waiter.resolve(result);
  }

  /** The last client that could answer a permission request left: nobody will answer one. */
  private nobodyAnswers(): void {
    for (const [run, waiter] of this.waiting)
      if (waiter.unlessNobodyAnswers) {
        this.waiting.delete(run);
        waiter.resolve(undefined);
      }
  }

  /** The Pod shut down or died: runs waited for will not end here. */
  private disconnected(): void {
    const gone = this.goneError();
    for (const waiter of this.waiting.values()) waiter.reject(gone);
    this.waiting.clear();
    this.runGoing = false;
    for (const listener of this.goneListeners) listener(gone.message);
    this.goneListeners.clear();
  }

  /** The served Pod is gone: what happened, and the two ways on (it again, or a Pod of one's own). */
  private goneError(): CliError {
    const why = this.shutdownReason === undefined ? "" : ` (${this.shutdownReason})`;
    return new CliError(
      `yoake serve has stopped${why}: its Pod cannot be reached. To go on, start yoake serve again and attach to it, or run yoake without it (a Pod of its own, on the same sessions).`,
      1,
    );
  }

  private deliver(event: PodEvent): void {
    for (const { type, listener } of this.listeners)
      if (type === undefined || type === event.type) listener(event);
  }

  private add(type: PodEventType | undefined, listener: Listener): Unsubscribe {
    const entry = { type, listener };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }
}

/** A caller waiting for a run's end; `unlessNobodyAnswers`: it gives up when no approver is left. */
interface RunWaiter {
  resolve(result: PodRunResult | undefined): void;
  reject(error: Error): void;
  unlessNobodyAnswers?: boolean;
}

/** A request the served Pod refused, as one line for the person at the terminal. */
function refusal(error: unknown): unknown {
  if (!(error instanceof PodProtocolError)) return error;
  if (error.code === "run_in_progress") return new CliError(`the served Pod is busy: ${error.message}`, 1);
  return new CliError(`the served Pod refused: ${error.message}`, 1);
}
