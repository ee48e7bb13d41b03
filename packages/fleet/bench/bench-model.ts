import type { MockProvider } from "@yoake/llm-worker/testing";

/** Rounds of tool calls per benchmark run, and calls per round. */
export const ROUNDS = 5;
export const CALLS = 3;

/**
 * The benchmarks' model: `ROUNDS` rounds of `CALLS` `write_file` calls, then "done"; usage on every
 * response, so runs are priced as real ones are.
 */
export function scriptBenchModel(provider: MockProvider): void {
  let ids = 0;
  provider.setHandler((request) => {
    const body = request.body as { messages: Array<{ role: string; content: unknown }> };
    const rounds = body.messages.filter(
      (m) =>
        Array.isArray(m.content) &&
        (m.content as Array<{ type: string }>).some((b) => b.type === "tool_result"),
    ).length;
    const usage = { inputTokens: 2000, outputTokens: 150 };
    if (rounds >= ROUNDS) return { blocks: [{ type: "text", text: "done" }], usage };
    return {
      blocks: Array.from({ length: CALLS }, (_, i) => {
        ids += 1;
        return {
          type: "tool_call" as const,
          id: `toolu_${ids}`,
          name: "write_file",
          arguments: { path: `out/r${rounds}-c${i}.txt`, content: `round ${rounds} call ${i}\n` },
        };
      }),
      usage,
    };
  });
}
