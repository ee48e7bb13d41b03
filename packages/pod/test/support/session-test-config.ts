import type { SessionConfig } from "../../src/session/entry.js";

/** A plausible `session_start` config for tests, rooted at `projectRoot`. */
export function testConfig(projectRoot: string): SessionConfig {
  return {
    model: {
      ref: "anthropic/claude-sonnet-5-5",
      scheme: "anthropic",
      id: "claude-sonnet-5-5",
      contextWindow: 200_000,
    },
    cwd: projectRoot,
    projectRoot,
    scope: {
      root: projectRoot,
      allow: [{ path: ".", access: "write", recursive: true, source: "defaults" }],
      deny: [{ path: ".git", access: "write", recursive: true, source: "defaults" }],
    },
    manifestSources: [{ kind: "defaults", source: "defaults", loaded: true }],
  };
}
