import { describe, expect, it } from "vitest";
import type { Event } from "../event.js";
import { EventWriter } from "../event-writer.js";
import {
  type IndexedToolCallPiece,
  parseJsonPath,
  StreamedArguments,
  ToolCallStreams,
} from "./streamed-tool-calls.js";

function setup() {
  const events: Event[] = [];
  const calls = new ToolCallStreams(new EventWriter((e) => events.push(e)));
  /** Block events in a compact form: `start <id> <name>`, `json <piece>`, `stop`. */
  const blocks = (): string[] =>
    events.flatMap((e) => {
      if (e.type === "block_start" && e.blockType === "tool_use") return [`start ${e.id} ${e.name}`];
      if (e.type === "block_delta" && e.delta.kind === "input_json") return [`json ${e.delta.json}`];
      if (e.type === "block_stop") return ["stop"];
      return [];
    });
  return { events, calls, blocks };
}

const piece = (index: number, args: string, id?: string, name?: string): IndexedToolCallPiece => ({
  index,
  ...(id !== undefined && { id, type: "function" as const }),
  function: { ...(name !== undefined && { name }), arguments: args },
});

describe("ToolCallStreams", () => {
  it("streams a call live and closes it when the next index starts and its JSON is complete", () => {
    const { calls, blocks } = setup();
    calls.push(piece(0, "", "call_a", "add"));
    calls.push(piece(0, '{"a":1}'));
    expect(blocks()).toEqual(["start call_a add", 'json {"a":1}']);
    calls.push(piece(1, '{"b":', "call_b", "mul"));
    expect(blocks()).toEqual(["start call_a add", 'json {"a":1}', "stop", "start call_b mul", 'json {"b":']);
    calls.push(piece(1, "2}"));
    calls.flush();
    expect(blocks().slice(5)).toEqual(["json 2}", "stop"]);
    expect(calls.any).toBe(true);
  });

  it("buffers the other calls while the live one is incomplete, and emits them whole at flush", () => {
    const { calls, blocks } = setup();
    calls.push(piece(1, '{"n":', "call_b", "second"));
    calls.push(piece(0, '{"n":', "call_a", "first"));
    calls.push(piece(1, "2}"));
    calls.push(piece(0, "1}"));
    // The live call ends once it is complete and another call shows up; the buffered one waits.
    expect(blocks()).toEqual(["start call_b second", 'json {"n":', "json 2}", "stop"]);
    calls.flush();
    expect(blocks().slice(4)).toEqual(["start call_a first", 'json {"n":1}', "stop"]);
  });

  it("emits buffered calls in index order", () => {
    const { calls, blocks } = setup();
    calls.push(piece(0, "[", "a", "f"));
    calls.push(piece(2, "{}", "c", "h"));
    calls.push(piece(1, "{}", "b", "g"));
    calls.push(piece(0, "]"));
    calls.flush();
    expect(blocks().filter((b) => b.startsWith("start"))).toEqual(["start a f", "start b g", "start c h"]);
  });

  it("waits for the name before opening a call, and synthesizes a missing id", () => {
    const { calls, events, blocks } = setup();
    calls.push({ index: 0, function: { arguments: '{"x"' } });
    expect(blocks()).toEqual([]);
    calls.push({ index: 0, function: { name: "f", arguments: ":1}" } });
    calls.flush();
    expect(blocks()).toEqual(["start call_0 f", 'json {"x":1}', "stop"]);
    expect(events.find((e) => e.type === "block_start")).toMatchObject({ synthesizedId: true });
  });

  it("tells calls apart by id when a server leaves out the index", () => {
    const { calls, blocks } = setup();
    calls.push({ id: "c1", function: { name: "f", arguments: '{"x":' } });
    calls.push({ function: { arguments: "1}" } });
    calls.push({ id: "c2", function: { name: "g", arguments: "{}" } });
    calls.flush();
    expect(blocks()).toEqual([
      "start c1 f",
      'json {"x":',
      "json 1}",
      "stop",
      "start c2 g",
      "json {}",
      "stop",
    ]);
  });

  it("reports arguments that arrive for a call already closed, but not blank ones", () => {
    const { calls } = setup();
    calls.push(piece(0, "{}", "a", "f"));
    calls.push(piece(1, "{}", "b", "g"));
    expect(calls.push(piece(0, " "))).toBeUndefined();
    expect(calls.push(piece(0, '{"late":1}'))).toMatch(/tool call 0/);
  });

  it("reports an index that is not a non-negative integer", () => {
    const { calls } = setup();
    expect(calls.push(piece(-1, "{}", "a", "f"))).toMatch(/index/);
    expect(calls.push(piece(1.5, "{}", "a", "f"))).toMatch(/index/);
    expect(calls.any).toBe(false);
  });

  it("closes the live call when another kind of block interrupts it", () => {
    const { calls, blocks } = setup();
    calls.push(piece(0, "{}", "a", "f"));
    calls.interrupt();
    expect(blocks()).toEqual(["start a f", "json {}", "stop"]);
  });
});

describe("parseJsonPath", () => {
  it("reads member names, indices and bracketed names", () => {
    expect(parseJsonPath("$.a")).toEqual(["a"]);
    expect(parseJsonPath("$.recipe.ingredients[0].name")).toEqual(["recipe", "ingredients", 0, "name"]);
    expect(parseJsonPath("$['a b'][\"c.d\"]")).toEqual(["a b", "c.d"]);
    expect(parseJsonPath("city.name")).toEqual(["city", "name"]);
  });

  it("rejects paths that do not name one place", () => {
    for (const path of ["$", "", "$.", "$..a", "$.a[*]", "$[-1]", "$[x]", "$['a'", ".a", "$a"]) {
      expect(parseJsonPath(path), path).toBeUndefined();
    }
  });
});

describe("StreamedArguments", () => {
  it("starts from the call's own args without changing them", () => {
    const initial = { kept: "yes", nested: { a: 1 } };
    const args = new StreamedArguments(initial);
    expect(args.apply({ jsonPath: "$.nested.b", numberValue: 2 })).toBeUndefined();
    expect(JSON.parse(args.json())).toEqual({ kept: "yes", nested: { a: 1, b: 2 } });
    expect(initial).toEqual({ kept: "yes", nested: { a: 1 } });
  });

  it("appends string pieces only while the previous piece of the path continues", () => {
    const args = new StreamedArguments();
    args.apply({ jsonPath: "$.s", stringValue: "ab", willContinue: true });
    args.apply({ jsonPath: "$.s", stringValue: "cd", willContinue: true });
    args.apply({ jsonPath: "$.s", stringValue: "ef" });
    args.apply({ jsonPath: "$.t", stringValue: "x", willContinue: true });
    args.apply({ jsonPath: "$.u", numberValue: 1 });
    args.apply({ jsonPath: "$.t", stringValue: "y" });
    expect(JSON.parse(args.json())).toEqual({ s: "abcdef", t: "y", u: 1 });
  });

  it("reports pieces it cannot place", () => {
    const args = new StreamedArguments();
    args.apply({ jsonPath: "$.a", numberValue: 1 });
    expect(args.apply({ jsonPath: "$.a.b", numberValue: 2 })).toContain("conflicts");
    expect(args.apply({ jsonPath: "$.list[0]", numberValue: 1 })).toBeUndefined();
    expect(args.apply({ jsonPath: "$.list.x", numberValue: 1 })).toContain("conflicts");
    expect(args.apply({ jsonPath: "$[?(@.a)]", numberValue: 1 })).toContain("unsupported jsonPath");
    expect(args.apply({ stringValue: "x" })).toContain("without a jsonPath");
  });
});
