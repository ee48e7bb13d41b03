import type { Scope, ScopeRule } from "../scope/rules.js";

/**
 * The scope of a child: the parent's own rules (never more), each write rule made read-only unless
 * `write` is asked for. Deny rules and secret file names stay as they are, so what the parent may
 * not touch the child may not either. The child's file tools and its shell's sandbox are both built
 * from this scope.
 */
export function childScope(parent: Scope, write: boolean): Scope {
  const readOnly = (rule: ScopeRule): ScopeRule => (write ? { ...rule } : { ...rule, access: "read" });
  return {
    root: parent.root,
    allow: parent.allow.map(readOnly),
    deny: parent.deny.map((rule) => ({ ...rule })),
    ...(parent.secretFiles !== undefined && { secretFiles: parent.secretFiles.map((rule) => ({ ...rule })) }),
  };
}
