import { type Pod, type PodOptions, ProjectTrustError, type TrustRequest } from "@yoake/pod";
import { CliError } from "./cli-error.js";
import { openPod } from "./open-pod.js";
import type { TrustChoice } from "./tui/components/trust-prompt.js";

/** Asks the user about a manifest that needs trust (the terminal UI's prompt): trust, don't trust, or quit. */
export type AskTrust = (error: ProjectTrustError) => Promise<TrustChoice>;

/** What each kind of request is called in the one-line message. */
const KIND_NAMES: Readonly<Record<TrustRequest["kind"], string>> = {
  hook: "hooks",
  mcp: "MCP servers",
  base_url: "a base URL",
  api_key_env: "a key variable",
  model_scheme: "another API for the provider",
  model_provider: "another model provider or a local endpoint",
  scope_outside: "paths outside the project",
  fewer_approvals: "fewer approvals",
  secret_files: "secret files",
  shell: "a wider shell sandbox",
  setting: "other settings",
};

/**
 * The one line a run that cannot ask prints: which manifest, what kinds of things it asks for
 * (never the manifest's own text, which could hold anything), and the flag that trusts it.
 */
export function untrustedManifestLine(error: ProjectTrustError): string {
  const kinds = [...new Set(error.requests.map((request) => KIND_NAMES[request.kind]))];
  const declined = error.remembered === "distrusted" ? "you did not trust it; " : "";
  return (
    `${error.manifests.join(", ")} is not trusted: it asks for ${kinds.join(", ")}; ` +
    `${declined}rerun with --trust-project to trust it`
  );
}

/**
 * Opens the Pod, settling the project's trust first. With `--trust-project` (`options.projectTrust`
 * is `trust`) the manifest is applied and remembered. Otherwise an untrusted manifest that asks for
 * more than the safe defaults is, without `ask` (headless `-p`), a `CliError` (exit 2, one line);
 * with `ask` (the terminal UI), the user is asked once: trust (remembered), don't trust (remembered;
 * the Pod runs with the manifest's safe parts only) or quit. A manifest the user already declined
 * is not asked about again.
 *
 * Returns the Pod and the options to reopen it with (`/model`, `/resume`), which carry the answer.
 */
export async function openPodWithTrust(
  options: PodOptions,
  ask?: AskTrust,
): Promise<{ pod: Pod; options: PodOptions }> {
  try {
    return { pod: await openPod(options), options };
  } catch (error) {
    if (!(error instanceof ProjectTrustError)) throw error;
    if (ask === undefined) throw new CliError(untrustedManifestLine(error));
    const answer = error.remembered === "distrusted" ? "distrust" : await ask(error);
    if (answer === "quit") throw new CliError(untrustedManifestLine(error));
    const pod = await openPod({ ...options, projectTrust: answer });
    return { pod, options: { ...options, projectTrust: answer === "trust" ? "trust-once" : "safe-only" } };
  }
}
