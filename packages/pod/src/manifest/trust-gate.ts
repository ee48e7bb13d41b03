import { createHash } from "node:crypto";
import path from "node:path";
import { mergeLayers, type SourcedLayer } from "./merge.js";
import { ProjectTrustError } from "./project-trust-error.js";
import { classifyLayer, type TrustRequest } from "./trust.js";
import { TrustStore } from "./trust-store.js";

/**
 * What to do with a manifest layer from inside the project that asks for more than the safe
 * defaults, when the user's trust store has no "trusted" answer for its exact content:
 * - `refuse` (the default): throw a `ProjectTrustError` listing what it asks for;
 * - `safe-only`: apply only its safe parts (see `classifyLayer`), with a warning;
 * - `distrust`: the same, and remember the answer (a UI need not ask again);
 * - `trust`: apply it whole and remember the answer;
 * - `trust-once`: apply it whole without remembering (an embedder with trust decisions of its own).
 */
export type ProjectTrustPolicy = "refuse" | "safe-only" | "distrust" | "trust" | "trust-once";

/** A layer read from a file inside the project, and that file's text. */
export interface ProjectLayerText {
  source: string;
  /** The file's canonical path, inside the project's real path. */
  realPath: string;
  text: string;
}

export interface ProjectTrustOptions {
  /** The project's real path: the key of the trust store. */
  projectRoot: string;
  policy: ProjectTrustPolicy;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Why no command can be sandboxed here (undefined: one can), asked once when a project layer has
   * hooks that ask for the sandbox, so their requests say where they would really run. Without
   * it the requests say both.
   */
  sandboxMissing?: () => Promise<string | undefined>;
}

/**
 * The layers to merge, with each project layer whole (trusted), reduced to its safe part, or not
 * at all (a `ProjectTrustError`). A project layer that asks for nothing needs no answer and never
 * touches the store.
 */
export async function applyProjectTrust(
  layers: readonly SourcedLayer[],
  projectLayers: readonly ProjectLayerText[],
  options: ProjectTrustOptions,
): Promise<{ layers: SourcedLayer[]; warnings: string[] }> {
  const untrusted = new Set(projectLayers.map((layer) => layer.source));
  const sandboxedHooks = layers.some(
    (sourced) => untrusted.has(sourced.source) && sourced.layer.hooks?.some((hook) => hook.sandbox !== false),
  );
  const missing = sandboxedHooks ? await options.sandboxMissing?.() : undefined;
  const sandboxHere =
    !sandboxedHooks || options.sandboxMissing === undefined
      ? undefined
      : missing === undefined
        ? ({ works: true } as const)
        : ({ works: false, reason: missing } as const);
  const safeLayers: SourcedLayer[] = [];
  const requests: TrustRequest[] = [];
  for (const sourced of layers) {
    if (!untrusted.has(sourced.source)) {
      safeLayers.push(sourced);
      continue;
    }
    const below = mergeLayers(safeLayers).merged;
    const classified = await classifyLayer(sourced.layer, {
      projectRoot: options.projectRoot,
      below,
      ...(sandboxHere !== undefined && { sandboxHere }),
    });
    requests.push(...classified.requests);
    safeLayers.push({ source: sourced.source, layer: classified.safe });
  }
  if (requests.length === 0) return { layers: [...layers], warnings: [] };

  const manifests = projectLayers.map((layer) => layer.source);
  const digest = manifestDigest(options.projectRoot, projectLayers);
  const store = TrustStore.forEnv(options.env);
  const remembered = await store.decisionFor(options.projectRoot, digest);
  const { policy } = options;
  if (remembered === "trusted" || policy === "trust" || policy === "trust-once") {
    if (policy === "trust" && remembered !== "trusted")
      await store.record(options.projectRoot, digest, manifests, "trusted");
    return { layers: [...layers], warnings: [] };
  }
  if (policy === "refuse")
    throw new ProjectTrustError({
      projectRoot: options.projectRoot,
      manifests,
      requests,
      ...(remembered !== undefined && { remembered }),
    });
  if (policy === "distrust") await store.record(options.projectRoot, digest, manifests, "distrusted");
  const warning =
    `${manifests.join(", ")} is not trusted: ${requests.length} of its settings (hooks, MCP servers, ` +
    "base URL, another model provider, wider scope or fewer approvals) are not applied";
  return { layers: safeLayers, warnings: [warning] };
}

/**
 * SHA-256 over each project manifest's place in the project and content: a changed file is a new
 * manifest; the same project reached through a link is the same one.
 */
function manifestDigest(projectRoot: string, projectLayers: readonly ProjectLayerText[]): string {
  const hash = createHash("sha256");
  for (const { realPath, text } of projectLayers)
    hash.update(`${path.relative(projectRoot, realPath)}\0${text}\0`);
  return hash.digest("hex");
}
