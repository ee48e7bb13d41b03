import type { ScriptedResponse } from "@yoake/llm-worker/testing";

/** The wire formats the benchmark drives; each framework runs on those it supports. */
export type BenchScheme = "anthropic" | "openai-responses" | "openai-chat";

export const benchSchemes: readonly BenchScheme[] = ["anthropic", "openai-responses", "openai-chat"];

/** Tool rounds of one conversation (the figure); the final text answer comes after them. */
export const DEFAULT_ROUNDS = 50;

export const SYSTEM_PROMPT = "You are a travel assistant. Use the tools to answer.";
export const USER_PROMPT = "For each city on my list, get the weather, the local time and the population.";
export const FINAL_TEXT = "Done: weather, time and population for every city on your list.";
export const MODEL_ID = "bench-model";

/** The three tools, in the order the model calls them in every round. Each takes `{ city }`. */
export const TOOL_NAMES = ["get_weather", "get_time", "get_population"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const TOOL_DESCRIPTIONS: Record<ToolName, string> = {
  get_weather: "Current weather in a city",
  get_time: "Local time in a city",
  get_population: "Population of a city",
};
export const CITY_DESCRIPTION = "City name, e.g. Paris";

const CITIES = ["Paris", "Tokyo", "Lima", "Oslo", "Cairo", "Perth", "Quito", "Seoul", "Dakar", "Lyon"];

/** The city every tool is asked about in `round`. */
export function cityOf(round: number): string {
  return CITIES[round % CITIES.length] as string;
}

/**
 * What a tool returns, at once: a short string that depends on its arguments, so the mock can
 * check that the result the framework sent back belongs to the call it answers.
 */
export function answerTool(name: ToolName, city: string): string {
  switch (name) {
    case "get_weather":
      return `Sunny, 21 C in ${city}`;
    case "get_time":
      return `14:05 local time in ${city}`;
    case "get_population":
      return `${city}: about 2 million people`;
  }
}

/** The call id the model gives call `index` of `round`; each scheme has its own id style. */
export function callIdOf(scheme: BenchScheme, round: number, index: number): string {
  return scheme === "anthropic" ? `toolu_bench_${round}_${index}` : `call_bench_${round}_${index}`;
}

/**
 * The model's reply at `round`: three tool calls before `rounds`, then the final text. Usage grows
 * with the conversation, as a real one would.
 */
export function scriptedReply(scheme: BenchScheme, round: number, rounds: number): ScriptedResponse {
  const usage = { inputTokens: 900 + round * 60, outputTokens: round < rounds ? 45 : 20 };
  const responseId = scheme === "anthropic" ? `msg_bench_${round}` : `resp_bench${round}`;
  if (round >= rounds) {
    return { responseId, model: MODEL_ID, usage, blocks: [{ type: "text", text: FINAL_TEXT }] };
  }
  const city = cityOf(round);
  return {
    responseId,
    model: MODEL_ID,
    usage,
    blocks: TOOL_NAMES.map((name, index) => ({
      type: "tool_call" as const,
      id: callIdOf(scheme, round, index),
      name,
      arguments: { city },
    })),
  };
}
