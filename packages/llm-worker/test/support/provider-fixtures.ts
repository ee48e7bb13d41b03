import { resolve } from "node:path";

/**
 * The recorded provider streams, each with the result it must parse to (see its README): a copy
 * in this repository, so that a clone tests itself. `YOAKE_FIXTURES` points the tests at another
 * set (more recordings of the same layout).
 */
export const PROVIDER_FIXTURES =
  process.env.YOAKE_FIXTURES ?? resolve(import.meta.dirname, "../fixtures/providers");
