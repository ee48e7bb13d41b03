import {
  type AgentContext,
  type ContentBlock,
  type PromptResponse,
  RequestError,
  type RequestPermissionResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { ImagePart, Item } from "@yoake/llm-worker";
import type { Alert, PermissionDecision, PermissionRequest, Pod, PodRunResult, Segment } from "@yoake/pod";
import { screenText } from "../screen-text.js";
import { replayUpdates } from "./history-replay.js";
import { PERMISSION_OPTIONS, permissionDecision, permissionToolCall } from "./permission.js";
import { promptImages, promptSegments } from "./prompt-segments.js";
import { promptStopReason } from "./stop-reason.js";
import { TurnReporter, type TurnSink } from "./turn-reporter.js";

/** What a session needs of its Pod: the in-process `Pod`, or a served one attached to (`RemotePod`). */
export interface AcpPod {
  run(
    input: readonly Segment[],
    options: { signal?: AbortSignal; images?: readonly ImagePart[] },
  ): Promise<PodRunResult>;
  respond(id: string, decision: PermissionDecision, options: { signal?: AbortSignal }): Promise<PodRunResult>;
  on: Pod["on"];
  readonly history: readonly Item[];
  readonly manifest: {
    readonly projectRoot: string;
    readonly model: { readonly contextWindow?: number | undefined };
  };
  /** Closes the Pod's session log (in-process), or leaves the served Pod. */
  close(): Promise<void>;
  /** A served Pod: its runs go on when this client leaves it. */
  readonly runsOnWhenLeft?: boolean;
}

/** What a session needs of the agent around it. */
export interface AcpSessionContext {
  /** Whether the client shows `notice` updates (its `session.notices` capability). */
  notices: boolean;
  /** A line for standard error, which editors keep as the agent's log. */
  log(line: string): void;
}

/**
 * One ACP session: a Pod of its own (its cwd, manifest, scope, approvals and session log), one
 * prompt turn at a time. A turn runs the Pod; when a call needs approval it asks the client with
 * `session/request_permission` and answers the Pod; `session/cancel` aborts whatever the turn is
 * doing, the model's stream, a running tool or a question to the user.
 */
export class AcpSession {
  /** Aborts the turn going now; undefined between turns. */
  private turn: AbortController | undefined;
  /** Settles when the turn going now has ended. */
  private turnEnded: Promise<unknown> = Promise.resolve();

  constructor(
    /** The id the client knows the session by. */
    readonly id: string,
    readonly pod: AcpPod,
    private readonly context: AcpSessionContext,
  ) {}

  /**
   * Runs one prompt turn to its end, streaming its updates to `client`. Resolves with the stop
   * reason; a turn that failed (the provider's error) rejects with a JSON-RPC error saying why.
   */
  prompt(blocks: readonly ContentBlock[], client: AgentContext): Promise<PromptResponse> {
    if (this.turn !== undefined)
      throw RequestError.invalidRequest(undefined, "a prompt turn is already running in this session");
    const segments = promptSegments(blocks, this.pod.manifest.projectRoot);
    const images = promptImages(blocks);
    if (segments.length === 0 && images.length === 0)
      throw RequestError.invalidParams(undefined, "the prompt is empty");
    const abort = new AbortController();
    this.turn = abort;
    const turn = this.runTurn(segments, images, client, abort.signal).finally(() => {
      this.turn = undefined;
    });
    this.turnEnded = turn.catch(() => undefined);
    return turn;
  }

  /** `session/cancel`: the turn going now ends with `cancelled`. Nothing happens between turns. */
  cancel(): void {
    this.turn?.abort(new Error("cancelled by the client"));
  }

  /** Sends the conversation so far as updates (`session/load`); resolves once they are written. */
  async replay(client: AgentContext): Promise<void> {
    const updates = replayUpdates(this.pod.history, this.pod.manifest.projectRoot);
    await Promise.all(
      updates.map((update) => client.notify("session/update", { sessionId: this.id, update })),
    );
  }

  /**
   * Cancels the turn going now (`session/close` asks for that), waits for it, and closes the Pod's
   * session log. `leaving`: the editor went away without asking; a served Pod's run then goes on
   * for its other clients (leaving is not cancelling), and only this client's connection closes.
   */
  async close({ leaving = false }: { leaving?: boolean } = {}): Promise<void> {
    if (leaving && this.pod.runsOnWhenLeft === true) return this.pod.close();
    this.cancel();
    await this.turnEnded;
    await this.pod.close();
  }

  private async runTurn(
    segments: readonly Segment[],
    images: readonly ImagePart[],
    client: AgentContext,
    signal: AbortSignal,
  ): Promise<PromptResponse> {
    const sink = this.sink(client);
    const { projectRoot, model } = this.pod.manifest;
    const reporter = new TurnReporter(sink, projectRoot, model.contextWindow);
    const stopListening = reporter.listen(this.pod);
    let result: PodRunResult;
    // The client may answer a question `cancelled` without a `session/cancel`: the turn ends so too.
    let cancelledWhileAsking = false;
    try {
      result = await this.pod.run(segments, { signal, images });
      while (result.permissionRequest !== undefined && !signal.aborted) {
        const request = result.permissionRequest;
        const decision = await this.askPermission(request, client, signal);
        if (decision === "cancelled") {
          cancelledWhileAsking = true;
          break;
        }
        if (typeof decision === "object")
          reporter.settle(request.callId, "failed", `Not run: ${decision.deny}.`);
        result = await this.pod.respond(request.id, decision, { signal });
      }
    } finally {
      stopListening();
    }
    reporter.finish(this.pod.history);
    if (signal.aborted || cancelledWhileAsking) return { stopReason: "cancelled" };
    return { stopReason: promptStopReason(result) };
  }

  /**
   * Asks the client about a call that needs approval. A cancelled turn, or a client that answers
   * `cancelled`, gives `cancelled` (the Pod stays paused; the next prompt drops the request). A
   * client that cannot ask (the request fails) gives a rejection the model can read.
   */
  private async askPermission(
    request: PermissionRequest,
    client: AgentContext,
    signal: AbortSignal,
  ): Promise<PermissionDecision | "cancelled"> {
    let response: RequestPermissionResponse;
    try {
      response = await client.request(
        "session/request_permission",
        {
          sessionId: this.id,
          toolCall: permissionToolCall(request, this.pod.manifest.projectRoot),
          options: [...PERMISSION_OPTIONS],
        },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
    } catch (error) {
      if (signal.aborted) return "cancelled";
      const message = error instanceof Error ? error.message : String(error);
      this.context.log(`yoake acp: could not ask about ${request.tool}, so it is rejected: ${message}\n`);
      return { deny: `the editor could not ask the user (${message})` };
    }
    return permissionDecision(response.outcome);
  }

  private sink(client: AgentContext): TurnSink {
    const sessionId = this.id;
    const { notices, log } = this.context;
    // Notifications are written in call order; one that fails means the connection is gone,
    // which ends the session anyway.
    const update = (update: SessionUpdate): void => {
      client.notify("session/update", { sessionId, update }).catch(() => undefined);
    };
    return {
      update,
      alert: (alert: Alert) => {
        if (alert.level !== "info") log(`yoake acp: ${alert.level}: ${screenText(alert.message)}\n`);
        if (notices)
          update({
            sessionUpdate: "notice",
            severity: alert.level === "warn" ? "warning" : alert.level,
            title: screenText(alert.message),
          });
      },
    };
  }
}
