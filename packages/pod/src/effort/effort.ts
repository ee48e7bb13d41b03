import type { SchemeName } from "@yoake/llm-worker";
import type { ReasoningConfig } from "@yoake/llm-worker/internal";

/** How hard the model thinks (`--effort`, `/effort`, the manifest's `generation.effort`). */
export const EFFORT_LEVELS = ["low", "medium", "high", "max"] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

/** Whether `text` names an effort level (what the CLI and `/effort` accept). */
export function isEffortLevel(text: string): text is EffortLevel {
  return (EFFORT_LEVELS as readonly string[]).includes(text);
}

/**
 * The thinking budget of `max` where a scheme takes a budget: Anthropic's and Gemini 2.5's largest
 * common budget. `low` / `medium` / `high` go through the schemes' own effort tables instead.
 */
const MAX_BUDGET_TOKENS = 32_000;

/**
 * The request's reasoning settings for an effort level on a scheme. `low` / `medium` / `high` are
 * the schemes' own effort levels (Anthropic: a thinking budget per level; OpenAI: reasoning
 * effort; Gemini: a thinking budget or level; Ollama: `think`). `max` is the largest setting each
 * scheme has: a 32,000-token thinking budget on Anthropic and Gemini, `high` on OpenAI and Ollama,
 * which have no higher level.
 */
export function reasoningForEffort(level: EffortLevel, scheme: SchemeName): ReasoningConfig {
  if (level !== "max") return { effort: level };
  return scheme === "anthropic" || scheme === "gemini"
    ? { budgetTokens: MAX_BUDGET_TOKENS }
    : { effort: "high" };
}
