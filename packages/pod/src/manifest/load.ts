import { readFile, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { canonicalize } from "../scope/canonical-path.js";
import { pathCovers } from "../scope/rules.js";
import { DEFAULT_LAYER } from "./defaults.js";
import { ManifestError, type ManifestIssue } from "./manifest-error.js";
import { mergeLayers, normalizeLayer, type SourcedLayer } from "./merge.js";
import { findProjectRoot, PROJECT_DIR } from "./project-root.js";
import { type Manifest, type ManifestLayerInfo, resolveManifest } from "./resolve.js";
import { type ManifestLayerInput, validateLayer } from "./schema.js";
import { toml } from "./toml.js";
import { applyProjectTrust, type ProjectLayerText, type ProjectTrustPolicy } from "./trust-gate.js";

export { findProjectRoot, PROJECT_DIR };

export interface LoadManifestOptions {
  /** Where the project search starts. */
  cwd: string;
  /** For `XDG_CONFIG_HOME` and `HOME`; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The top layer (programmatic or command-line), validated like a file. */
  overrides?: ManifestLayerInput;
  /**
   * What to do with a manifest inside the project (the project's `.yoake/manifest.toml`, or any
   * layer whose file lies in the project) that asks for more than the safe defaults and that the
   * user has not trusted (see `ProjectTrustPolicy`); default `refuse`: a `ProjectTrustError`.
   */
  projectTrust?: ProjectTrustPolicy;
}

const MANIFEST_FILE = "manifest.toml";
const AGENTS_FILE = "AGENTS.md";

/**
 * Loads the manifest cascade: built-in defaults < user config (`$XDG_CONFIG_HOME/yoake/manifest.toml`,
 * else `~/.config/yoake/manifest.toml`) < the project's `.yoake/manifest.toml` < `overrides`.
 *
 * The project root is the nearest directory, from `cwd` upward, that holds `.yoake/`; failing that
 * the nearest that holds `.git`; failing that `cwd`. The home directory only counts when `cwd` is
 * the home directory itself: a `~/.git` of dotfiles must not make the whole home one project (and
 * the scope with it). AGENTS.md is read from the project root.
 *
 * Every problem in every layer is reported at once, in one ManifestError.
 *
 * A layer whose file lies inside the project is the repository's, not the user's: what it asks
 * beyond the safe defaults (hooks, MCP servers, a base URL or key variable, scope outside the
 * project, fewer approvals or secret files, unknown keys) applies only once the user trusted that
 * exact content (the trust store in the user's state directory) or `projectTrust` says so.
 */
export async function loadManifest(options: LoadManifestOptions): Promise<Manifest> {
  const env = options.env ?? process.env;
  const cwd = path.resolve(options.cwd);
  const homeDir = path.resolve(env.HOME ?? homedir());
  const projectRoot = await findProjectRoot(cwd, homeDir);

  const infos: ManifestLayerInfo[] = [{ kind: "defaults", source: "defaults", loaded: true }];
  const layers: SourcedLayer[] = [
    { source: "defaults", layer: normalizeLayer(DEFAULT_LAYER, "defaults", homeDir) },
  ];
  const issues: ManifestIssue[] = [];
  const realRoot = await realpath(projectRoot).catch(() => projectRoot);
  const projectLayers: ProjectLayerText[] = [];
  const addLayer = (kind: ManifestLayerInfo["kind"], source: string, data: unknown): void => {
    const result = validateLayer(data, source);
    if (result.ok) layers.push({ source, layer: normalizeLayer(result.layer, source, homeDir) });
    else issues.push(...result.issues);
    infos.push({ kind, source, loaded: true });
  };

  for (const [kind, file] of [
    ["user", userManifestPath(env, homeDir)],
    ["project", path.join(projectRoot, PROJECT_DIR, MANIFEST_FILE)],
  ] as const) {
    const text = await readOptional(file);
    if (text === undefined) {
      infos.push({ kind, source: file, loaded: false });
      continue;
    }
    const realPath = (await canonicalize(file)).real;
    // The project's layer is the project's by where it was found, wherever a link in its path leads
    // (a monorepo package's `.yoake` pointing at shared tooling is still the repository's); the
    // user's is the project's when it really lies inside it. Either way its text is what is trusted.
    if (kind === "project" || pathCovers(realRoot, true, realPath))
      projectLayers.push({ source: file, realPath, text });
    const parsed = parseToml(text, file);
    if (parsed.ok) addLayer(kind, file, parsed.value);
    else {
      issues.push(parsed.issue);
      infos.push({ kind, source: file, loaded: true });
    }
  }
  if (options.overrides !== undefined) addLayer("overrides", "overrides", options.overrides);
  if (issues.length > 0) throw new ManifestError(issues);
  const trusted = await applyProjectTrust(layers, projectLayers, {
    projectRoot: realRoot,
    policy: options.projectTrust ?? "refuse",
    env,
  });

  const agentsPath = path.join(projectRoot, AGENTS_FILE);
  const agentsText = await readOptional(agentsPath);
  const manifest = resolveManifest(mergeLayers(trusted.layers), {
    projectRoot,
    layers: infos,
    ...(agentsText === undefined ? {} : { agentsMd: { path: agentsPath, text: agentsText } }),
  });
  manifest.warnings.unshift(...trusted.warnings);
  return manifest;
}

/** `$XDG_CONFIG_HOME/yoake/manifest.toml` when that variable is an absolute path (as the spec requires), else `~/.config/yoake/manifest.toml`. */
export function userManifestPath(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const xdg = env.XDG_CONFIG_HOME;
  const configHome = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(homeDir, ".config");
  return path.join(configHome, "yoake", MANIFEST_FILE);
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

function parseToml(
  text: string,
  source: string,
): { ok: true; value: unknown } | { ok: false; issue: ManifestIssue } {
  try {
    return { ok: true, value: toml().parse(text) };
  } catch (error) {
    if (!(error instanceof toml().TomlError)) throw error;
    // The library's message carries a code frame after its first line; the position says enough.
    const reason = error.message.split("\n")[0]?.replace(/^Invalid TOML document: /, "") ?? "invalid TOML";
    return {
      ok: false,
      issue: {
        source,
        key: "",
        message: `invalid TOML at line ${error.line}, column ${error.column}: ${reason}`,
      },
    };
  }
}
