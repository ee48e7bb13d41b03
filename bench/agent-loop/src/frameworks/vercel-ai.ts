import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { type LanguageModel, stepCountIs, streamText, type Tool, tool } from "ai";
import { z } from "zod";
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
 * The Vercel AI SDK's multi-step `streamText` with `stopWhen`, consumed to the end. `generateText`
 * is not used: it asks for a non-streamed JSON response, and every other contender streams.
 */
export const prepareVercelAiLoop: PrepareLoop = async ({ scheme, url, rounds }) => {
  const model = modelFor(scheme, url);
  let toolRuns = 0;
  const tools: Record<string, Tool> = {};
  for (const name of TOOL_NAMES) {
    tools[name] = tool({
      description: TOOL_DESCRIPTIONS[name],
      inputSchema: z.object({ city: z.string().describe(CITY_DESCRIPTION) }),
      execute: async ({ city }) => {
        toolRuns++;
        return answerTool(name, city);
      },
    });
  }
  return async () => {
    toolRuns = 0;
    let failure: unknown;
    const result = streamText({
      model,
      system: SYSTEM_PROMPT,
      prompt: USER_PROMPT,
      tools,
      stopWhen: stepCountIs(rounds + 1),
      // Ours' default; without it the SDK warns on every request that it does not know the model.
      maxOutputTokens: 8192,
      // Like ours, no store on the provider side: every request carries the whole history.
      providerOptions: { openai: { store: false } },
      onError: ({ error }) => {
        failure = error;
      },
    });
    await result.consumeStream();
    if (failure !== undefined) throw failure;
    return { text: await result.text, toolRuns };
  };
};

function modelFor(scheme: BenchScheme, url: string): LanguageModel {
  const apiKey = "bench";
  if (scheme === "anthropic") return createAnthropic({ baseURL: `${url}/v1`, apiKey })(MODEL_ID);
  const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey });
  return scheme === "openai-responses" ? openai.responses(MODEL_ID) : openai.chat(MODEL_ID);
}
