import { ManifestError } from "./manifest-error.js";
import type { ManifestLayerInput } from "./schema.js";
import { toml } from "./toml.js";

/**
 * Turns command-line assignments (`--set generation.temperature=0.2`) into an overrides layer.
 * The value is read as a TOML value (`0.2`, `true`, `["a", "b"]`, `"text"`); anything that is not
 * valid TOML is taken as a plain string, so `model.ref=openai/gpt-5` needs no quotes. The result
 * is validated by `loadManifest` like any manifest file, under the source `overrides`.
 */
export function parseOverrideAssignments(assignments: readonly string[]): ManifestLayerInput {
  const layer: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const equals = assignment.indexOf("=");
    const key = equals < 0 ? "" : assignment.slice(0, equals).trim();
    const parts = key.split(".");
    if (key === "" || parts.some((part) => part === "")) {
      throw new ManifestError([
        { source: "command line", key: "", message: `expected key=value, got ${JSON.stringify(assignment)}` },
      ]);
    }
    let table = layer;
    for (const part of parts.slice(0, -1)) {
      const next = table[part];
      if (typeof next === "object" && next !== null && !Array.isArray(next))
        table = next as Record<string, unknown>;
      else table = table[part] = {};
    }
    table[parts.at(-1) as string] = tomlValue(assignment.slice(equals + 1).trim());
  }
  // Validated by loadManifest, which reports bad keys and types against "overrides".
  return layer as ManifestLayerInput;
}

function tomlValue(text: string): unknown {
  try {
    return toml().parse(`value = ${text}`).value;
  } catch {
    return text;
  }
}
