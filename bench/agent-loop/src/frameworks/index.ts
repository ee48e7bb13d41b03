import type { BenchScheme } from "../conversation.js";
import type { PrepareLoop } from "./framework.js";

export type { Conversation, LoopOutcome, LoopTarget, PrepareLoop } from "./framework.js";

/** A contender: what the table shows about it, and its loop, loaded on demand. */
export interface FrameworkEntry {
  label: string;
  /** The npm packages it is built from (their versions are this workspace's dependencies). */
  packages: readonly string[];
  schemes: readonly BenchScheme[];
  /**
   * Imports this framework's module only: a measured process must not pay for (or hold in memory)
   * the other frameworks' code.
   */
  load(): Promise<PrepareLoop>;
}

const allSchemes: readonly BenchScheme[] = ["anthropic", "openai-responses", "openai-chat"];

const entries = {
  yoake: {
    label: "yoake (ours)",
    packages: ["@yoake/llm-worker"],
    schemes: allSchemes,
    load: async () => (await import("./yoake.js")).prepareYoakeLoop,
  },
  "vercel-ai": {
    label: "Vercel AI SDK",
    packages: ["ai", "@ai-sdk/anthropic", "@ai-sdk/openai"],
    schemes: allSchemes,
    load: async () => (await import("./vercel-ai.js")).prepareVercelAiLoop,
  },
  "openai-agents": {
    label: "OpenAI Agents SDK",
    packages: ["@openai/agents"],
    // An OpenAI SDK: no Anthropic Messages model of its own.
    schemes: ["openai-responses", "openai-chat"],
    load: async () => (await import("./openai-agents.js")).prepareOpenaiAgentsLoop,
  },
  "pi-agent": {
    label: "pi-agent-core",
    packages: ["@mariozechner/pi-agent-core", "@mariozechner/pi-ai"],
    schemes: allSchemes,
    load: async () => (await import("./pi-agent.js")).preparePiAgentLoop,
  },
} satisfies Record<string, FrameworkEntry>;

export type FrameworkName = keyof typeof entries;
/** By command-line name; ours first. */
export const frameworks: Record<FrameworkName, FrameworkEntry> = entries;
export const frameworkNames = Object.keys(frameworks) as FrameworkName[];
