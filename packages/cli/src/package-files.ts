import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * The package's own files, found from this module: its root is one level above it both in `src/`
 * and bundled into `dist/` (whose chunks are written at dist/'s top, see scripts/bundle.ts). So
 * this file stays at the top of `src/`, and every path into the package goes through it.
 */
const PACKAGE_ROOT = new URL("../", import.meta.url);

/** The package's version, from its package.json. */
export const PACKAGE_VERSION = (createRequire(PACKAGE_ROOT)("./package.json") as { version: string }).version;

/** A path inside the installed package, e.g. `packagePath("demo/project/")`. */
export function packagePath(relative: string): string {
  return fileURLToPath(new URL(relative, PACKAGE_ROOT));
}
