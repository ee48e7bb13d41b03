import { resolve } from "node:path";

/**
 * The recorded provider streams, each with the result it must parse to (see its README): kept in
 * this repository, so that a clone tests itself. A new recording is a new pair of files there.
 */
export const PROVIDER_FIXTURES = resolve(import.meta.dirname, "../fixtures/providers");
