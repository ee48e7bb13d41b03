import { createRequire } from "node:module";
import type * as OtelApi from "@opentelemetry/api";

export type Otel = typeof OtelApi;

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
export function contextOfTraceparent(otel: Otel, traceparent: string): OtelApi.Context {
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
