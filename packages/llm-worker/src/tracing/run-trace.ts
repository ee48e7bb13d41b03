import type { LlmClient, RetryNotice } from "../llm-client/client.js";
import type { ToolResultItem } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import type { Response, ToolCall } from "../llm-client/response.js";
import type { WorkerResult } from "../worker/result.js";
import { providerAttributes, requestAttributes, responseAttributes, usageAttributes } from "./gen-ai.js";
import {
  type Context,
  contextOfTraceparent,
  type Otel,
  openTelemetry,
  type Span,
  type Tracer,
} from "./otel.js";

const TRACER_NAME = "@yoake/llm-worker";
/** OpenTelemetry's `SpanKind` and `SpanStatusCode` values, fixed by its API (no runtime import). */
const CLIENT = 2;
const ERROR = 2;

/**
 * The spans of one run, after the OpenTelemetry GenAI conventions:
 *
 * ```
 * invoke_agent              the run (parent: the caller's active context, or `traceparent`)
 * ├─ turn 1                 one request and the tool calls it asked for
 * │  ├─ chat <model>        the provider request: model, tokens, finish reason, retries as events
 * │  └─ execute_tool <name> each tool call, the active context while the tool runs
 * └─ turn 2 ...
 * ```
 *
 * Made only when `@opentelemetry/api` is installed; without a registered SDK its spans do not
 * record, and attributes are then not even computed.
 */
export class RunTrace {
  private turnSpan: Span | undefined;
  private turnContext: Context;
  private chatSpan: Span | undefined;

  private constructor(
    private readonly otel: Otel,
    private readonly tracer: Tracer,
    private readonly client: LlmClient,
    private readonly runSpan: Span,
    private readonly runContext: Context,
  ) {
    this.turnContext = runContext;
  }

  /** The trace of a run starting now, or undefined when OpenTelemetry is not installed. */
  static start(client: LlmClient, traceparent: string | undefined): RunTrace | undefined {
    const otel = openTelemetry();
    if (otel === undefined) return undefined;
    const tracer = otel.trace.getTracer(TRACER_NAME);
    const parent =
      traceparent !== undefined ? contextOfTraceparent(otel, traceparent) : otel.context.active();
    const runSpan = tracer.startSpan(
      "invoke_agent",
      {
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          ...providerAttributes(client.scheme),
          "gen_ai.request.model": client.model,
        },
      },
      parent,
    );
    return new RunTrace(otel, tracer, client, runSpan, otel.trace.setSpan(parent, runSpan));
  }

  /** A new turn: the previous one's span ends. */
  turn(turn: number): void {
    this.turnSpan?.end();
    this.turnSpan = this.tracer.startSpan(
      `turn ${turn}`,
      { attributes: { "yoake.turn": turn } },
      this.runContext,
    );
    this.turnContext = this.otel.trace.setSpan(this.runContext, this.turnSpan);
  }

  /** The provider request of the current turn, its span active while it streams. */
  async request(request: Request, send: () => Promise<Response>): Promise<Response> {
    const model = request.model ?? this.client.model;
    const span = this.tracer.startSpan(
      `chat ${model}`,
      { kind: CLIENT, attributes: requestAttributes(this.client.scheme, model, request) },
      this.turnContext,
    );
    this.chatSpan = span;
    try {
      const response = await this.otel.context.with(this.otel.trace.setSpan(this.turnContext, span), send);
      if (span.isRecording()) span.setAttributes(responseAttributes(response));
      if (response.status === "failed") {
        span.setAttribute("error.type", response.error?.kind ?? "stream");
        span.setStatus({ code: ERROR, message: response.error?.message ?? "the response failed" });
      }
      return response;
    } catch (err) {
      throw failSpan(span, err);
    } finally {
      span.end();
      this.chatSpan = undefined;
    }
  }

  /** A retry of the current request, as an event on its span. */
  retry(notice: RetryNotice): void {
    this.chatSpan?.addEvent("retry", {
      "yoake.retry.attempt": notice.retry + 1,
      "yoake.retry.delay_ms": notice.delayMs,
      "error.type": notice.error.kind,
    });
  }

  /** One tool call, its span the active context while the tool runs. */
  async tool(call: ToolCall, run: () => Promise<ToolResultItem>): Promise<ToolResultItem> {
    const span = this.tracer.startSpan(
      `execute_tool ${call.name}`,
      {
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": call.name,
          "gen_ai.tool.call.id": call.id,
          "gen_ai.tool.type": "function",
        },
      },
      this.turnContext,
    );
    try {
      const result = await this.otel.context.with(this.otel.trace.setSpan(this.turnContext, span), run);
      if (result.isError === true) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: ERROR });
      }
      return result;
    } catch (err) {
      throw failSpan(span, err);
    } finally {
      span.end();
    }
  }

  /** The run ended (any way, `undefined` when it threw): every open span ends. */
  end(result: WorkerResult | undefined): void {
    this.turnSpan?.end();
    const span = this.runSpan;
    if (result === undefined) {
      span.setStatus({ code: ERROR, message: "the run threw" });
    } else {
      if (span.isRecording())
        span.setAttributes({
          ...usageAttributes(result.usage),
          "yoake.turns": result.turns,
          "yoake.status": result.status,
        });
      if (result.status === "failed") {
        span.setAttribute(
          "error.type",
          result.error.kind === "llm" ? result.error.error.kind : result.error.kind,
        );
        span.setStatus({ code: ERROR, message: result.error.message });
      }
    }
    span.end();
  }
}

/** Marks the span failed by what was thrown, and gives it back to rethrow. */
function failSpan(span: Span, err: unknown): unknown {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: ERROR, message: err instanceof Error ? err.message : String(err) });
  return err;
}
