import { createRequire } from "node:module";

/*
 * The parts of `@opentelemetry/api` used here, declared locally: the package must type-check where
 * the optional peer is not installed. `test/conformance/otel.ts` proves the real API fits them.
 */
export type AttributeValue = string | number | boolean | string[] | number[] | boolean[];
export type Attributes = Record<string, AttributeValue | undefined>;
/** Opaque: made and read by the API only. */
export type Context = object;
export interface SpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}
export interface Span {
  setAttribute(key: string, value: AttributeValue): unknown;
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: 0 | 1 | 2; message?: string }): unknown;
  recordException(exception: Error | string): void;
  isRecording(): boolean;
  end(): void;
}
export interface Tracer {
  startSpan(
    name: string,
    options?: { kind?: 0 | 1 | 2 | 3 | 4; attributes?: Attributes },
    context?: Context,
  ): Span;
}
export interface Otel {
  ROOT_CONTEXT: Context;
  trace: {
    getTracer(name: string): Tracer;
    setSpan(context: Context, span: Span): Context;
    setSpanContext(context: Context, spanContext: SpanContext): Context;
    isSpanContextValid(spanContext: SpanContext): boolean;
  };
  context: {
    active(): Context;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
      context: Context,
      fn: F,
      thisArg?: ThisParameterType<F>,
      ...args: A
    ): ReturnType<F>;
  };
}

let loaded: Otel | null | undefined;

/**
 * `@opentelemetry/api`, an optional peer: loaded on first use, once; undefined when it is not
 * installed, and then tracing costs nothing more than this one failed lookup per process.
 */
export function openTelemetry(): Otel | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)("@opentelemetry/api") as Otel;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The context of a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), as a remote parent; the
 * root context for a malformed one (an environment variable is untrusted input, never an error).
 */
export function contextOfTraceparent(otel: Otel, traceparent: string): Context {
  const match = TRACEPARENT.exec(traceparent.trim().toLowerCase());
  const root = otel.ROOT_CONTEXT;
  if (!match) return root;
  const [, version, traceId, spanId, flags, rest] = match as unknown as string[];
  // Version ff is invalid; version 00 has nothing after the flags.
  if (version === "ff" || (version === "00" && rest !== undefined)) return root;
  const spanContext = {
    traceId: traceId as string,
    spanId: spanId as string,
    traceFlags: Number.parseInt(flags as string, 16) & 1,
    isRemote: true,
  };
  return otel.trace.isSpanContextValid(spanContext) ? otel.trace.setSpanContext(root, spanContext) : root;
}
