import { SessionKey } from "../../src/session-log/chain.js";
import type { SessionConfig } from "../../src/session-log/entry.js";

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

/**
 * The session key of tests: the bytes 0x00 to 0x1f (also the key the package README's example log
 * was written with). Real keys are random (`loadSessionKey`).
 */
export const testKey = SessionKey.fromBytes(Uint8Array.from({ length: 32 }, (_, i) => i));
