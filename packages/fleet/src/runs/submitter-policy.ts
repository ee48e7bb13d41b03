import type { RunSpec } from "./run-record.js";

/**
 * The manifest keys a run's `overrides` may set, by table: what changes how the model works on
 * the run's own tree and nothing it can reach. The model (a catalogue `provider/model` only: no
 * base URL, key variable or scheme, which would send the conversation and the worker's key
 * elsewhere), the instructions, generation settings, limits, which tools are offered and which ask
 * first (in the fleet an approval is a step of the run, not a boundary: anyone who can write the
 * database can answer it), deny rules (narrower only), more always-ask commands, the shell's time
 * limits, and the provider's own web search. Everything else is refused: `[[hooks]]` and `[[mcp]]`
 * (commands on the worker, outside the sandbox), `scope.allow`, `scope.hard_links` and
 * `scope.secret_files` (a wider or leakier scope), `[shell] sandbox`, `network`, `env`, `ask` and
 * `unsandboxed`, `web_fetch`'s hosts and local addresses (the worker's network, its database and
 * cloud metadata among it), and any key added to the manifest later until it is listed here.
 */
export const SUBMITTER_OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  model: ["ref"],
  instructions: ["prompt", "agents_md"],
  generation: ["max_tokens", "temperature", "top_p", "reasoning", "effort"],
  limits: ["turns", "tool_output_bytes"],
  tools: ["approve", "disable"],
  scope: ["deny"],
  shell: ["always_ask", "timeout_ms", "max_timeout_ms"],
  web: ["provider_search", "provider_search_max_uses", "provider_search_domains"],
};

/** The fields of a `RunSpec`, and what each must be. */
const SPEC_FIELDS: Readonly<Record<keyof RunSpec, (value: unknown) => boolean>> = {
  repo: (value) => typeof value === "string" && value !== "",
  ref: (value) => typeof value === "string" && value !== "",
  path: (value) => typeof value === "string" && value.startsWith("/"),
  prompt: (value) => typeof value === "string" && value !== "",
  model: (value) => typeof value === "string" && /^[^/\s]+\/\S+$/.test(value),
  overrides: isTable,
  timeoutSeconds: (value) => Number.isInteger(value) && (value as number) > 0,
  patchOnly: (value) => typeof value === "boolean",
};

const EXPECTED: Readonly<Record<keyof RunSpec, string>> = {
  repo: "a repository URL",
  ref: "a branch or tag name",
  path: "an absolute path",
  prompt: "a non-empty string",
  model: 'a catalogue model, "provider/model"',
  overrides: "a table of manifest keys",
  timeoutSeconds: "a whole number of seconds",
  patchOnly: "true or false",
};

/** A run spec that is not what a submitter may ask for; the message says what and why. */
export class RunSpecError extends Error {
  override readonly name = "RunSpecError";
}

/**
 * Checks that `spec` is a run a submitter may ask for, and returns it typed: its fields as
 * `RunSpec` says (no others), a repository or a shared path (not both), and overrides within
 * `SUBMITTER_OVERRIDES`. Throws a `RunSpecError` naming every key refused. `FleetClient.submit`
 * checks before storing a run, and the worker again before running one, since whoever can write
 * the database can write a spec that never went through `submit`. Whether a shared path is one
 * the worker serves is the worker's own check (`--allow-path`); the values of allowed keys are
 * checked by the Pod as it loads its manifest.
 */
export function checkRunSpec(spec: unknown): RunSpec {
  if (!isTable(spec)) throw new RunSpecError("a run spec must be a table");
  const problems: string[] = [];
  for (const [field, value] of Object.entries(spec)) {
    const valid = Object.hasOwn(SPEC_FIELDS, field) ? SPEC_FIELDS[field as keyof RunSpec] : undefined;
    if (valid === undefined) problems.push(`${field} is not a field of a run`);
    else if (value !== undefined && !valid(value))
      problems.push(`${field} must be ${EXPECTED[field as keyof RunSpec]}`);
  }
  if (spec.prompt === undefined) problems.push("prompt is missing");
  if ((spec.repo === undefined) === (spec.path === undefined))
    problems.push("a run needs a repository (--repo) or a shared path (--path), not both");
  if (isTable(spec.overrides)) {
    const refused = refusedOverrides(spec.overrides);
    if (refused.length > 0)
      problems.push(
        `its overrides set what a submitter may not: ${refused.join(", ")} (a submitter may set ${allowedKeys()})`,
      );
  }
  if (problems.length > 0) throw new RunSpecError(`refused run: ${problems.join("; ")}`);
  return spec as unknown as RunSpec;
}

/** The dotted keys of `overrides` outside `SUBMITTER_OVERRIDES`. */
function refusedOverrides(overrides: Record<string, unknown>): string[] {
  const refused: string[] = [];
  for (const [table, value] of Object.entries(overrides)) {
    const allowed = Object.hasOwn(SUBMITTER_OVERRIDES, table) ? SUBMITTER_OVERRIDES[table] : undefined;
    if (allowed === undefined || !isTable(value)) {
      refused.push(table);
      continue;
    }
    for (const key of Object.keys(value)) if (!allowed.includes(key)) refused.push(`${table}.${key}`);
  }
  return refused;
}

function allowedKeys(): string {
  return Object.entries(SUBMITTER_OVERRIDES)
    .map(([table, keys]) => `${table}.{${keys.join(",")}}`)
    .join(" ");
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
