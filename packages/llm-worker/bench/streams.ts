import { encodeAnthropic } from "../src/testing/encoders/anthropic.js";
import { encodeOpenaiChat } from "../src/testing/encoders/openai-chat.js";
import type { ScriptedResponse } from "../src/testing/script.js";

/** The streams the decoder benchmark replays, as the real providers would send them. */
export const streamCases = {
  /** 100,000 text deltas of 4 characters. */
  large: (): ScriptedResponse => ({
    blocks: [{ type: "text", text: "abcd".repeat(100_000) }],
    pieceSize: 4,
    usage: { inputTokens: 10, outputTokens: 100_000 },
  }),
  /** 20 tool calls, each with 20 KB of arguments streamed in 50-byte pieces. */
  "tool-heavy": (): ScriptedResponse => ({
    blocks: Array.from({ length: 20 }, (_, i) => ({
      type: "tool_call" as const,
      id: `call_${i}`,
      name: "write_file",
      arguments: { path: `src/file${i}.ts`, content: "x".repeat(20_000 - 40) },
    })),
    pieceSize: 50,
    usage: { inputTokens: 10, outputTokens: 100_000 },
  }),
};

export type StreamCase = keyof typeof streamCases;
export const shapes = { anthropic: encodeAnthropic, "openai-chat": encodeOpenaiChat };
export type Shape = keyof typeof shapes;

/** What is measured: the bare floor, our client path, and that path with the response assembled. */
export const variants = ["floor", "ours", "assembled"] as const;
export type Variant = (typeof variants)[number];
