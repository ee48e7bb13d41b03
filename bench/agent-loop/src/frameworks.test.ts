import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FINAL_TEXT, TOOL_NAMES } from "./conversation.js";
import { frameworkNames, frameworks } from "./frameworks/index.js";
import { conversationHandler } from "./mock-script.js";

const ROUNDS = 3;
let mock: MockProvider;

beforeAll(async () => {
  mock = await startMockProvider({ writeSize: 256 });
  mock.setHandler(conversationHandler(ROUNDS));
});
afterAll(() => mock.close());

const cases = frameworkNames.flatMap((name) => frameworks[name].schemes.map((scheme) => ({ name, scheme })));

// Every contender must really run the benchmark's conversation (the mock checks each request),
// or its figures mean nothing.
describe("each framework's loop", () => {
  it.each(cases)("$name runs the whole conversation over $scheme, twice", async ({ name, scheme }) => {
    const conversation = await (await frameworks[name].load())({ scheme, url: mock.url, rounds: ROUNDS });
    for (let run = 0; run < 2; run++) {
      const before = mock.requests.length;
      const outcome = await conversation();
      expect(outcome).toEqual({ text: FINAL_TEXT, toolRuns: ROUNDS * TOOL_NAMES.length });
      const sent = mock.requests.slice(before);
      expect(sent.map((r) => r.scheme)).toEqual(Array(ROUNDS + 1).fill(scheme));
    }
  });
});
