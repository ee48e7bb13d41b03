import { Agent, type AgentTool } from "@mariozechner/pi-agent-core";
import { type Api, type Model, Type } from "@mariozechner/pi-ai";
import {
  answerTool,
  type BenchScheme,
  CITY_DESCRIPTION,
  MODEL_ID,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTIONS,
  TOOL_NAMES,
  USER_PROMPT,
} from "../conversation.js";
import type { PrepareLoop } from "./framework.js";

/**
 * pi-agent-core's `Agent` (parallel tool execution, its default) over pi-ai, with a model entry
 * whose `baseUrl` is the mock, as one declares a self-hosted or proxied model.
 */
export const preparePiAgentLoop: PrepareLoop = async ({ scheme, url }) => {
  const model = modelFor(scheme, url);
  let toolRuns = 0;
  const parameters = Type.Object({ city: Type.String({ description: CITY_DESCRIPTION }) });
  const tools: AgentTool<typeof parameters>[] = TOOL_NAMES.map((name) => ({
    name,
    label: name,
    description: TOOL_DESCRIPTIONS[name],
    parameters,
    execute: async (_callId, { city }) => {
      toolRuns++;
      return { content: [{ type: "text", text: answerTool(name, city) }], details: {} };
    },
  }));
  return async () => {
    toolRuns = 0;
    const agent = new Agent({
      initialState: { systemPrompt: SYSTEM_PROMPT, model, tools },
      getApiKey: () => "bench",
    });
    await agent.prompt(USER_PROMPT);
    if (agent.state.errorMessage) throw new Error(agent.state.errorMessage);
    const last = agent.state.messages.at(-1);
    const text =
      last?.role === "assistant"
        ? last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("")
        : "";
    return { text, toolRuns };
  };
};

function modelFor(scheme: BenchScheme, url: string): Model<Api> {
  const common = {
    id: MODEL_ID,
    name: MODEL_ID,
    reasoning: false,
    input: ["text" as const],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200_000,
    maxTokens: 8192,
  };
  if (scheme === "anthropic")
    return { ...common, api: "anthropic-messages", provider: "anthropic", baseUrl: url };
  const api = scheme === "openai-responses" ? "openai-responses" : "openai-completions";
  return { ...common, api, provider: "openai", baseUrl: `${url}/v1` };
}
