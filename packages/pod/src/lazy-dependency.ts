import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);

/**
 * A dependency required on first use instead of imported: what only a tool call or an unusual
 * file needs (a glob matcher, a YAML parser, a diff) must not cost every Pod's start, `yoake -p`
 * before its request above all. Returns the loader; each call after the first is a field read.
 * For CommonJS packages and those that also ship a CommonJS build.
 */
export function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireHere(name) as T;
    return loaded;
  };
}
