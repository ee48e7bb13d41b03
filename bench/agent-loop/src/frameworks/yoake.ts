import { createClient, type SchemeName, tool, Worker } from "@yoake/llm-worker";
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

/** Ours: `Worker` with `tool()` over `createClient`, as the package README shows. */
export const prepareYoakeLoop: PrepareLoop = async ({ scheme, url, rounds }) => {
  const baseURL = scheme === "anthropic" ? url : `${url}/v1`;
  const client = createClient({
    scheme: scheme satisfies SchemeName,
    model: MODEL_ID,
    baseURL,
    apiKey: "bench",
  });
  let toolRuns = 0;
  const tools = TOOL_NAMES.map((name) =>
    tool({
      name,
      description: TOOL_DESCRIPTIONS[name],
      input: z.object({ city: z.string().describe(CITY_DESCRIPTION) }),
      execute: ({ city }) => {
        toolRuns++;
        return answerTool(name, city);
      },
    }),
  );
  return async () => {
    toolRuns = 0;
    const worker = new Worker({ client, system: SYSTEM_PROMPT, tools, maxTurns: rounds + 1 });
    const result = await worker.run(USER_PROMPT);
    if (result.status === "failed") throw new Error(`run failed: ${result.error.message}`);
    if (result.status !== "finished") throw new Error(`run ended ${result.status}: ${result.reason}`);
    return { text: result.text, toolRuns };
  };
};
