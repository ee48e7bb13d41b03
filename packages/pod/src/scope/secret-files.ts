import path from "node:path";
import type { SecretFileRule } from "./rules.js";

/**
 * Compiles `scope.secret_files` into a test on canonical paths: the rule whose pattern matches the
 * path's last component, or undefined. Case is ignored everywhere, so `.ENV` on a case-insensitive
 * file system (or a case variant on Linux) is refused as `.env` would be.
 */
export function compileSecretFiles(
  rules: readonly SecretFileRule[],
): (realPath: string) => SecretFileRule | undefined {
  const compiled = rules.map((rule) => ({ rule, regex: patternRegex(rule.pattern) }));
  return (realPath) => {
    const name = path.basename(realPath);
    return compiled.find(({ regex }) => regex.test(name))?.rule;
  };
}

/** `*` any run of characters, `?` exactly one; everything else literal. */
function patternRegex(pattern: string): RegExp {
  let source = "";
  for (const char of pattern) {
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else source += char.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "is");
}
