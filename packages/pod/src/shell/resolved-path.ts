import { stat } from "node:fs/promises";
import { canonicalize } from "../scope/canonical-path.js";

/** An absolute path as the sandbox binds it: canonical, and what is there. */
export interface ResolvedPath {
  /** Canonical (see `canonicalize`). */
  real: string;
  exists: boolean;
  isDirectory: boolean;
}

/** Resolves `absolutePath`; a link loop leads nowhere, so it comes back as not existing. */
export async function resolvePath(absolutePath: string): Promise<ResolvedPath> {
  let real: string;
  let exists: boolean;
  try {
    ({ real, exists } = await canonicalize(absolutePath));
  } catch {
    // A link loop leads nowhere: nothing to bind, nothing to hide.
    return { real: absolutePath, exists: false, isDirectory: false };
  }
  if (!exists) return { real, exists, isDirectory: false };
  const info = await stat(real).catch(() => undefined);
  return { real, exists: info !== undefined, isDirectory: info?.isDirectory() === true };
}
