import type { TrustRequest } from "./trust.js";
import type { TrustDecision } from "./trust-store.js";

/**
 * A project manifest asks for more than the safe defaults (hooks, MCP servers, a base URL, scope
 * outside the project, fewer approvals, ...) and the user has not trusted it: nothing of it was
 * applied, run, started or contacted. Carries what the manifest asks for, so a UI can show it and
 * ask; trusting it is creating the Pod again with `projectTrust: "trust"`.
 */
export class ProjectTrustError extends Error {
  /** The project's real path, as the trust store knows it. */
  readonly projectRoot: string;
  /** The untrusted manifest files (the project's `.yoake/manifest.toml`, usually alone). */
  readonly manifests: readonly string[];
  /** Everything they ask for, in file order. */
  readonly requests: readonly TrustRequest[];
  /** `distrusted` when the user already declined this exact content (a UI then need not ask again). */
  readonly remembered: TrustDecision | undefined;

  constructor(details: {
    projectRoot: string;
    manifests: readonly string[];
    requests: readonly TrustRequest[];
    remembered?: TrustDecision;
  }) {
    const first = details.requests[0]?.description ?? "more than the safe defaults";
    const more = details.requests.length > 1 ? ` (and ${details.requests.length - 1} more)` : "";
    super(`${details.manifests.join(", ")} is not trusted; it asks to ${first}${more}`);
    this.name = "ProjectTrustError";
    this.projectRoot = details.projectRoot;
    this.manifests = details.manifests;
    this.requests = details.requests;
    this.remembered = details.remembered;
  }
}
