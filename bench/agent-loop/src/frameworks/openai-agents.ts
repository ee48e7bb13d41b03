import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from "@openai/agents";
import { z } from "zod";
import {
  answerTool,
  CITY_DESCRIPTION,
  MODEL_ID,
  SYSTEM_PROMPT,
  TOOL_DESCRIPTIONS,
  TOOL_NAMES,
  USER_PROMPT,
} from "../conversation.js";
import type { PrepareLoop } from "./framework.js";

/**
 * The OpenAI Agents SDK: an `Agent` with function tools, run streamed by a `Runner` whose model
 * provider points at the mock. Streamed, because the mock (like every contender here) streams;
 * tracing is off, as it would otherwise export spans to OpenAI over the network.
 */
export const prepareOpenaiAgentsLoop: PrepareLoop = async ({ scheme, url, rounds }) => {
  setTracingDisabled(true);
  const modelProvider = new OpenAIProvider({
    baseURL: `${url}/v1`,
    apiKey: "bench",
    useResponses: scheme === "openai-responses",
  });
  const runner = new Runner({ modelProvider, tracingDisabled: true });
  let toolRuns = 0;
  const tools = TOOL_NAMES.map((name) =>
    tool({
      name,
      description: TOOL_DESCRIPTIONS[name],
      parameters: z.object({ city: z.string().describe(CITY_DESCRIPTION) }),
      execute: async ({ city }) => {
        toolRuns++;
        return answerTool(name, city);
      },
    }),
  );
  const agent = new Agent({ name: "travel", instructions: SYSTEM_PROMPT, model: MODEL_ID, tools });
  return async () => {
    toolRuns = 0;
    const result = await runner.run(agent, USER_PROMPT, { stream: true, maxTurns: rounds + 1 });
    for await (const _event of result) {
      // Drained as a UI would; the events themselves are not needed.
    }
    await result.completed;
    if (result.error) throw result.error;
    return { text: String(result.finalOutput ?? ""), toolRuns };
  };
};
