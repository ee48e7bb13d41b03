import type { Readable, Writable } from "node:stream";
import { errorMessage, type Unsubscribe } from "@yoake/llm-worker/internal";
import type { PodEvent } from "../pod/events.js";
import {
  type CheckedRequest,
  Connection,
  type ConnectionHost,
  type ConnectionOptions,
} from "./connection.js";
import { failedRunResult, toWireEvent } from "./event-mapping.js";
import { PROTOCOL_VERSION, type RequestId, type WireStatus } from "./messages.js";
import type { ServedPod } from "./served-pod.js";
import type { WireEvent } from "./wire-events.js";

export interface ProtocolServerOptions extends ConnectionOptions {
  /** How long a shutdown waits for the cancelled run to end before closing anyway (default 10 s). */
  shutdownGraceMs?: number;
  /**
   * Connections served at once (default 16); one more is told `too_many_connections` and closed.
   * Each may hold a partial line up to `maxLineBytes`: the two bound what clients can make the Pod hold.
   */
  maxConnections?: number;
}

const DEFAULT_MAX_CONNECTIONS = 16;

export interface ShutdownOptions {
  /** Cancel the run going now (default true); false waits for it to end by itself. */
  cancelRun?: boolean;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * The protocol, independent of the transport: any number of connections (socket clients, or
 * standard input and output), one Pod. Every Pod event is serialized once and written to every
 * greeted connection in the same order, so all clients see the same stream. Runs are started by
 * a request and answered at once (`{ started: true }`); their end arrives as `run_end`, and a
 * client that goes away never stops them. Only `cancel` does, and a run cancelled by a client
 * other than the one that started it ends `by` the canceller's name, so the others know who.
 */
export class PodProtocolServer implements ConnectionHost {
  /** In order of connection: the order every event is written in. */
  private readonly connections = new Map<Connection, (() => void) | undefined>();
  private readonly stopListening: Unsubscribe;
  private readonly cleanups: Array<() => Promise<void>> = [];
  /** The run (or compaction) this server started and has not seen end. */
  private activeWork: Promise<void> | undefined;
  private compacting = false;
  /** A run started by a request is going: its `run_end` waits for the Pod's call to return. */
  private runInFlight = false;
  /** The number of the latest run a request started (see `StartedRun`). */
  private runCount = 0;
  /** The connection whose request started (or continued) the run going now. */
  private runStarter: Connection | undefined;
  /** Another connection than `runStarter` cancelled the run going now: its `run_end` names it. */
  private cancelledBy: Connection | undefined;
  /** `run_end` and the events after it, until the run's call returns (see `track`). */
  private heldAfterRunEnd: WireEvent[] | undefined;
  private shuttingDown: Promise<void> | undefined;
  private resolveClosed: () => void = () => {};
  /** Settles once the server has shut down and every connection is closed. */
  readonly closed: Promise<void>;

  constructor(
    private readonly pod: ServedPod,
    private readonly options: ProtocolServerOptions = {},
  ) {
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    this.stopListening = pod.listen((event) => this.forward(event));
  }

  /** Clients that completed `hello` and are still connected. */
  get clientCount(): number {
    let count = 0;
    for (const connection of this.connections.keys()) if (connection.greeted) count++;
    return count;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown !== undefined;
  }

  /** Serves one client over a stream pair; `onClose` runs when it goes away. */
  attach(input: Readable, output: Writable, onClose?: () => void): Connection {
    const connection = new Connection(input, output, this, this.options);
    const limit = this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    if (this.shuttingDown !== undefined) connection.end();
    else if (this.connections.size >= limit) {
      connection.fail(
        null,
        "too_many_connections",
        `the Pod serves ${limit} connections at most; try again later`,
      );
      connection.end();
    } else this.connections.set(connection, onClose);
    return connection;
  }

  /** Runs at shutdown, after the last event was written (closing a listener, removing a file). */
  onShutdown(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Writes one event to every greeted client. */
  broadcast(event: WireEvent): void {
    const line = `${JSON.stringify(event)}\n`;
    for (const connection of this.connections.keys()) if (connection.greeted) connection.write(line);
  }

  /** Greeted clients that answer permission requests (`answersApprovals` in their `hello`). */
  get approverCount(): number {
    let count = 0;
    for (const connection of this.connections.keys())
      if (connection.greeted && connection.answersApprovals) count++;
    return count;
  }

  disconnected(connection: Connection): void {
    const onClose = this.connections.get(connection);
    this.connections.delete(connection);
    // A client waiting for another to approve must learn that the last one who could has gone.
    if (connection.greeted && connection.answersApprovals && this.shuttingDown === undefined)
      this.broadcast({ event: "approvers", approvers: this.approverCount });
    onClose?.();
  }

  request(connection: Connection, request: CheckedRequest): void {
    const { id } = request;
    if (this.shuttingDown !== undefined) {
      connection.fail(id, "shutting_down", "the Pod is shutting down");
      return;
    }
    switch (request.method) {
      case "hello": {
        const { protocolVersion, client } = request.params;
        if (protocolVersion !== PROTOCOL_VERSION) {
          connection.fail(
            id,
            "version_mismatch",
            `this Pod speaks protocol version ${PROTOCOL_VERSION}, the client${client === undefined ? "" : ` "${client}"`} speaks ${protocolVersion}: use a client and a Pod of the same version`,
          );
          connection.end();
          return;
        }
        const answersApprovals = request.params.answersApprovals === true;
        // The others first, so the newcomer's own count comes with its answer, not as an event.
        if (answersApprovals) this.broadcast({ event: "approvers", approvers: this.approverCount + 1 });
        connection.greeted = true;
        connection.clientName = client;
        connection.answersApprovals = answersApprovals;
        const status = this.status();
        connection.reply(id, "hello", {
          protocolVersion: PROTOCOL_VERSION,
          projectRoot: status.projectRoot,
          status,
          warnings: [...(this.pod.manifest?.warnings ?? [])],
        });
        return;
      }
      case "run":
        if (this.refuseWhileBusy(connection, id)) return;
        connection.reply(id, "run", { started: true, run: ++this.runCount });
        this.track(
          connection,
          this.runCount,
          this.pod.run(request.params.segments, { images: request.params.images ?? [] }),
        );
        return;
      case "respond": {
        if (this.refuseWhileBusy(connection, id)) return;
        const { permissionId, decision } = request.params;
        const pending = this.pod.pendingPermission;
        if (pending?.id !== permissionId) {
          const why =
            pending === undefined
              ? "no permission request is pending (it was answered, or a new run dropped it)"
              : `the pending permission request is ${pending.id}`;
          connection.fail(id, "unknown_permission", `cannot answer ${permissionId}: ${why}`);
          return;
        }
        connection.reply(id, "respond", { started: true, run: ++this.runCount });
        this.track(connection, this.runCount, this.pod.respond(permissionId, decision));
        return;
      }
      case "resume": {
        if (this.refuseWhileBusy(connection, id)) return;
        const pending = this.pod.pendingPermission;
        if (pending !== undefined) {
          const message = `the run waits for approval of ${pending.tool} (permission request ${pending.id}): answer it with "respond"`;
          connection.fail(id, "not_paused", message);
          return;
        }
        if (this.pod.status().state !== "paused") {
          connection.fail(id, "not_paused", "no run is paused");
          return;
        }
        connection.reply(id, "resume", { started: true, run: ++this.runCount });
        this.track(connection, this.runCount, this.pod.resume());
        return;
      }
      case "cancel": {
        const cancelled = this.pod.cancel();
        if (cancelled && this.runInFlight && connection !== this.runStarter) this.cancelledBy ??= connection;
        connection.reply(id, "cancel", { cancelled });
        return;
      }
      case "notify":
        connection.reply(id, "notify", { note: this.pod.notify(request.params.text, request.params.role) });
        return;
      case "history":
        connection.reply(id, "history", { items: [...this.pod.history] });
        return;
      case "status":
        connection.reply(id, "status", this.status());
        return;
      case "compact":
        this.compact(connection, id);
        return;
      case "shutdown": {
        connection.reply(id, "shutdown", { shuttingDown: true });
        void this.shutdown(request.params.reason ?? `shutdown requested by ${nameOf(connection)}`);
        return;
      }
    }
  }

  /**
   * Ends the protocol: cancels the run (unless told not to) and waits for it to end, so its
   * `run_end` reaches the clients; closes the Pod (`close`, when it has one); sends `shutdown`;
   * closes every connection; runs the transport's cleanups. Calling it again returns the same
   * promise.
   */
  shutdown(reason: string, options: ShutdownOptions = {}): Promise<void> {
    this.shuttingDown ??= this.close(reason, options.cancelRun ?? true);
    return this.shuttingDown;
  }

  private async close(reason: string, cancelRun: boolean): Promise<void> {
    if (cancelRun) this.pod.cancel();
    const work = this.activeWork;
    if (work !== undefined)
      await withTimeout(work, this.options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
    try {
      await this.pod.close?.();
    } catch (error) {
      this.broadcast({
        event: "error",
        error: { kind: "pod", message: `closing the Pod: ${errorMessage(error)}` },
      });
    }
    this.broadcast({ event: "shutdown", reason });
    this.stopListening();
    for (const connection of [...this.connections.keys()]) connection.end();
    for (const cleanup of this.cleanups) await cleanup().catch(() => undefined);
    this.resolveClosed();
  }

  private status(): WireStatus {
    return { ...this.pod.status(), clients: this.clientCount, approvers: this.approverCount };
  }

  private refuseWhileBusy(connection: Connection, id: RequestId): boolean {
    if (this.compacting) {
      connection.fail(id, "run_in_progress", "the Pod is compacting the session; wait for it to finish");
      return true;
    }
    if (this.pod.status().state !== "running") return false;
    connection.fail(id, "run_in_progress", "a run is in progress; wait for its run_end, or cancel it first");
    return true;
  }

  private compact(connection: Connection, id: RequestId): void {
    const compact = this.pod.compact?.bind(this.pod);
    if (compact === undefined) {
      connection.fail(id, "not_supported", "this Pod cannot compact its session");
      return;
    }
    if (this.refuseWhileBusy(connection, id)) return;
    this.compacting = true;
    void this.watch(
      compact().then(
        // The Pod's own `history_changed` event has told every client already.
        (result) => connection.reply(id, "compact", { compacted: true, ...result }),
        (error: unknown) => connection.fail(id, "failed", `compaction failed: ${errorMessage(error)}`),
      ),
    ).finally(() => {
      this.compacting = false;
    });
  }

  /**
   * A run started by a request. Its events come from the Pod, but its `run_end` (and what follows
   * it) is held until the Pod's own call returns: the Pod still settles the run after the Worker
   * ended it (writes the session log, adds queued notes), and a client that starts the next run on
   * `run_end` must find the Pod free. If the call throws, the clients get an `error`, and a failed
   * `run_end` when none was sent.
   */
  private track(starter: Connection, runNumber: number, run: Promise<unknown>): void {
    this.runInFlight = true;
    this.runStarter = starter;
    this.cancelledBy = undefined;
    const settle = (error: { message: string } | undefined) => {
      this.runInFlight = false;
      const held = this.heldAfterRunEnd ?? [];
      this.heldAfterRunEnd = undefined;
      const cancelledBy = this.cancelledBy;
      this.runStarter = undefined;
      this.cancelledBy = undefined;
      for (const event of held)
        this.broadcast(event.event === "run_end" ? endOfRun(event, runNumber, cancelledBy) : event);
      if (error === undefined) return;
      this.broadcast({ event: "error", error: { kind: "pod", message: error.message } });
      if (held.length === 0)
        this.broadcast({ event: "run_end", result: failedRunResult(error.message), run: runNumber });
    };
    void this.watch(
      run.then(
        () => settle(undefined),
        (error: unknown) => settle({ message: errorMessage(error) }),
      ),
    );
  }

  private watch(work: Promise<void>): Promise<void> {
    this.activeWork = work;
    return work.finally(() => {
      if (this.activeWork === work) this.activeWork = undefined;
    });
  }

  private forward(event: PodEvent): void {
    const wire = toWireEvent(event, () => this.pod.history);
    if (wire === undefined) return;
    if (this.heldAfterRunEnd !== undefined) this.heldAfterRunEnd.push(wire);
    else if (wire.event === "run_end" && this.runInFlight) this.heldAfterRunEnd = [wire];
    else this.broadcast(wire);
  }
}

/**
 * A run's `run_end` as the clients get it: numbered as its request was answered, and, when a
 * client other than the one that started it cancelled it, naming that client (the Pod itself only
 * knows that its signal was aborted).
 */
function endOfRun(
  event: Extract<WireEvent, { event: "run_end" }>,
  run: number,
  cancelledBy: Connection | undefined,
): WireEvent {
  const { result } = event;
  if (cancelledBy === undefined || result.status !== "cancelled") return { ...event, run };
  return {
    ...event,
    result: { ...result, by: nameOf(cancelledBy), reason: "it asked the Pod to cancel the run" },
    run,
  };
}

/** How the other clients are told who did something: by the name it gave in `hello`. */
function nameOf(connection: Connection): string {
  return connection.clientName === undefined ? "a client" : `client "${connection.clientName}"`;
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
