/** One problem in a manifest: which file (or `defaults`, `overrides`), which dotted key, what is wrong. */
export interface ManifestIssue {
  source: string;
  /** Dotted key with array indices, e.g. `scope.allow[1].access`; empty for the file as a whole. */
  key: string;
  message: string;
}

/** `/home/me/.config/yoake/manifest.toml: limits.turns: expected an integer, got "ten"`. */
export function formatIssue(issue: ManifestIssue): string {
  return issue.key === ""
    ? `${issue.source}: ${issue.message}`
    : `${issue.source}: ${issue.key}: ${issue.message}`;
}

/** Every problem found while loading a manifest cascade, reported together rather than one per run. */
export class ManifestError extends Error {
  readonly issues: readonly ManifestIssue[];

  constructor(issues: readonly ManifestIssue[]) {
    const lines = issues.map(formatIssue);
    super(
      lines.length === 1 ? `invalid manifest: ${lines[0]}` : `invalid manifest:\n  ${lines.join("\n  ")}`,
    );
    this.name = "ManifestError";
    this.issues = issues;
  }
}
