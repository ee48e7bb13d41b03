/**
 * The OpenTelemetry API as `src/tracing/otel.ts` declares it locally (so the package type-checks
 * without the optional peer) is what `@opentelemetry/api` really is: `tsc` fails if they part.
 */
import type * as OtelApi from "@opentelemetry/api";
import type { Otel } from "../../src/tracing/otel.js";

/** Compiles only when `T` is assignable to `U`. */
type Assignable<T extends U, U> = T;

export type ApiConforms = Assignable<typeof OtelApi, Otel>;
