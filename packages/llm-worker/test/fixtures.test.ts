/**
 * Replays every recorded provider stream in `test/fixtures/providers/`
 * through `decodeStream` — whole, one byte at a time, and in random slices from a fixed seed — and
 * compares the gathered response with the `*.expected.json` beside it (format: that folder's README).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Item, Response, SchemeName } from "../src/index.js";
import { decodeStream } from "../src/llm-client/decode.js";
import { collectResponse } from "../src/timeline/collect-response.js";
import { PROVIDER_FIXTURES } from "./support/provider-fixtures.js";

const root = PROVIDER_FIXTURES;

/** Cases whose expected file we believe is wrong, with the reason (none so far). */
const SKIPPED: Record<string, string> = {};

interface Expected {
  case: string;
  provider: SchemeName;
  file: string;
  wire_format: "sse" | "sse-data-lines" | "ndjson" | "json-array";
  expected: {
    response_id?: string;
    model?: string;
    blocks: Array<Record<string, unknown> & { kind: string }>;
    text: string;
    reasoning: string;
    tool_calls: Array<{ id: string | null; name: string; arguments: unknown }>;
    usage: unknown;
    finish_reason: string | number | null;
    finish_reason_unified: string;
    incomplete_details?: unknown;
    error: unknown;
  };
}

function loadCases(): Expected[] {
  if (!existsSync(root)) throw new Error(`provider fixtures not found at ${root}`);
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(root, d.name))
        .filter((f) => f.endsWith(".expected.json"))
        .map((f) => JSON.parse(readFileSync(join(root, d.name, f), "utf8")) as Expected),
    );
}

/** The body as the server sent it; `.chunks.txt` lines become SSE messages as vercel/ai replays them. */
function bodyOf(c: Expected): Buffer {
  const raw = readFileSync(join(root, c.provider, c.file));
  if (c.wire_format !== "sse-data-lines") return raw;
  const lines = raw
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const done = c.provider === "gemini" ? "" : "data: [DONE]\n\n";
  return Buffer.from(lines.map((l) => `data: ${l}\n\n`).join("") + done, "utf8");
}

type Slicing = "whole" | "bytes" | "random";

/** Deterministic PRNG (mulberry32) so a failing slicing can be reproduced. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function* sliced(body: Buffer, slicing: Slicing): AsyncGenerator<Uint8Array> {
  if (slicing === "whole") {
    yield body;
    return;
  }
  const next = random(0x5eed);
  for (let at = 0; at < body.length; ) {
    const size = slicing === "bytes" ? 1 : 1 + Math.floor(next() * 40);
    yield body.subarray(at, at + size);
    at += size;
  }
}

function unified(r: Response): string {
  switch (r.stopReason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return r.toolCalls.length > 0 ? "tool-calls" : "stop";
    case "tool_use":
      return "tool-calls";
    case "max_tokens":
      return "length";
    case "refusal":
      return "content-filter";
    case "error":
      return "error";
  }
}

/** Our item in the fixture README's block vocabulary, with only the fields that file uses. */
function asBlock(item: Item): Record<string, unknown> {
  switch (item.type) {
    case "message":
      return {
        kind: "text",
        text: item.text,
        signature: item.signature,
        item_id: item.itemId,
        citations: item.citations?.length,
      };
    case "reasoning":
      return {
        kind: "reasoning",
        text: item.text,
        signature: item.signature,
        item_id: item.itemId,
        summary: item.summary,
        encrypted_content: item.encryptedContent,
      };
    case "redacted_reasoning":
      return { kind: "redacted_reasoning", data: item.data };
    case "tool_call":
      return {
        kind: "tool_call",
        id: item.synthesizedId ? null : item.callId,
        name: item.name,
        arguments: item.arguments.trim() === "" ? {} : JSON.parse(item.arguments),
        signature: item.signature,
        item_id: item.itemId,
      };
    case "server_tool": {
      const payload = (item.payload ?? {}) as Record<string, unknown>;
      if (item.role === "result")
        return { kind: "server_tool_result", type: item.name, tool_use_id: item.id };
      return {
        kind: "server_tool_call",
        id: item.id,
        name: item.name,
        arguments: item.arguments ? JSON.parse(item.arguments) : undefined,
        type: payload.type,
        status: payload.status,
        action: payload.action,
      };
    }
    case "tool_result":
      return { kind: "tool_result" };
  }
}

/** Keeps the fields the expectation states (a block lists only those its provider has). */
function pick(actual: Record<string, unknown>, expected: Record<string, unknown>): Record<string, unknown> {
  const ignored = new Set(["streamed_arguments"]);
  return Object.fromEntries(
    Object.keys(expected)
      .filter((k) => !ignored.has(k))
      .map((k) => [k, actual[k]]),
  );
}

function expectedBlock(block: Record<string, unknown>): Record<string, unknown> {
  const { streamed_arguments: _ignored, ...rest } = block;
  return rest;
}

const cases = loadCases();

describe("provider fixtures", () => {
  it("finds recordings for all five schemes", () => {
    expect(new Set(cases.map((c) => c.provider))).toEqual(
      new Set(["anthropic", "openai-chat", "openai-responses", "gemini", "ollama"]),
    );
  });

  for (const c of cases) {
    const name = `${c.provider}/${c.case}`;
    describe.skipIf(name in SKIPPED)(name, () => {
      for (const slicing of ["whole", "bytes", "random"] as const) {
        it(`replays ${slicing}`, async () => {
          const r = await collectResponse(decodeStream(c.provider, sliced(bodyOf(c), slicing)), c.provider);
          const e = c.expected;
          expect(r.items.map((item, i) => pick(asBlock(item), e.blocks[i] ?? {}))).toEqual(
            e.blocks.map(expectedBlock),
          );
          expect(r.text).toBe(e.text);
          expect(r.reasoning).toBe(e.reasoning);
          expect(
            r.toolCalls.map((t) => ({
              id: t.synthesizedId ? null : t.id,
              name: t.name,
              arguments: t.arguments,
            })),
          ).toEqual(e.tool_calls);
          expect(r.usage?.raw ?? null).toEqual(e.usage);
          expect(r.rawStopReason).toEqual(e.finish_reason);
          expect(unified(r)).toBe(e.finish_reason_unified);
          expect(r.error?.raw ?? null).toEqual(e.error);
          if (e.response_id !== undefined) expect(r.responseId).toBe(e.response_id);
          if (e.model !== undefined) expect(r.model).toBe(e.model);
          if (e.incomplete_details !== undefined)
            expect(r.incompleteDetails ?? null).toEqual(e.incomplete_details);
        });
      }
    });
  }
});
