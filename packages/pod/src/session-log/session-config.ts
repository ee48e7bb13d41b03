import type { Manifest } from "../manifest/resolve.js";
import type { SessionConfig } from "./entry.js";

/**
 * The `session_start` config of a Pod started in `cwd` with `manifest`: the model, the scope, where
 * each manifest layer came from, and the generation, tool and limit settings. Never the API key:
 * the manifest holds only the name of its variable, and `SessionLog.create` redacts even that.
 */
export function sessionConfigFromManifest(manifest: Manifest, cwd: string): SessionConfig {
  const { model } = manifest;
  return {
    model: {
      ...(model.ref === undefined ? {} : { ref: model.ref }),
      scheme: model.scheme,
      id: model.id,
      ...(model.baseURL === undefined ? {} : { baseURL: model.baseURL }),
      ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
      ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
    },
    cwd,
    projectRoot: manifest.projectRoot,
    scope: { root: manifest.scope.root, allow: [...manifest.scope.allow], deny: [...manifest.scope.deny] },
    manifestSources: manifest.layers.map((layer) => ({ ...layer })),
    generation: { ...manifest.generation },
    tools: { approve: [...manifest.tools.approve], disable: [...manifest.tools.disable] },
    limits: { ...manifest.limits },
  };
}
