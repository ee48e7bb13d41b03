import { describe, expect, it } from "vitest";
import type { JsonValue } from "../tool/tool-output.js";
import { summarizeJsonArray, summarizeJsonObject } from "./json-summary.js";

const ID = "01890a5d-ac96-774b-bcce-b302099a8057";
const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");
const wellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text;

describe("summarizeJsonArray", () => {
  it("follows the seed's layout: count, schema of the first entry, first two entries", () => {
    const entries = [
      { id: 1, name: "a", tags: ["x"], owner: { login: "o" }, deleted: false, note: null },
      { id: 2, name: "b", tags: [], owner: { login: "p" }, deleted: true, note: "n" },
      { id: 3, name: "c", tags: [], owner: { login: "q" }, deleted: false, note: null },
    ];
    expect(summarizeJsonArray(ID, entries)).toBe(
      [
        `[blob:${ID}] json_array | 3 entries`,
        "── schema ──",
        "id: number",
        "name: string",
        "tags: array",
        "owner: object",
        "deleted: boolean",
        "note: null",
        "── head ──",
        '{"id":1,"name":"a","tags":["x"],"owner":{"login":"o"},"deleted":false,"note":null}',
        '{"id":2,"name":"b","tags":[],"owner":{"login":"p"},"deleted":true,"note":"n"}',
      ].join("\n"),
    );
  });

  it("is the header alone for an empty array", () => {
    expect(summarizeJsonArray(ID, [])).toBe(`[blob:${ID}] json_array | 0 entries`);
  });

  it("gives the element type as the schema of an array of scalars or arrays", () => {
    expect(summarizeJsonArray(ID, ["a", "b", "c"]).split("\n").slice(1, 3)).toEqual([
      "── schema ──",
      "string",
    ]);
    expect(
      summarizeJsonArray(ID, [[1, 2], [3]])
        .split("\n")
        .slice(1, 3),
    ).toEqual(["── schema ──", "array"]);
  });

  it("cuts a huge nested first entry and still shows the second one", () => {
    const big = { id: 1, payload: { deep: { deeper: "z".repeat(10_000) } } };
    const summary = summarizeJsonArray(ID, [big, { id: 2, payload: {} }]);
    const head = summary.split("── head ──\n")[1]?.split("\n") ?? [];
    expect(head[0]).toMatch(/^\{"id":1,"payload":\{"deep":\{"deeper":"z+…$/);
    expect(head[1]).toBe('{"id":2,"payload":{}}');
    expect(bytesOf(summary)).toBeLessThanOrEqual(400);
  });

  it("keeps the schema to half the room and counts the keys left out", () => {
    const wide: { [key: string]: JsonValue } = {};
    for (let i = 0; i < 60; i++) wide[`field_number_${i}`] = i;
    const summary = summarizeJsonArray(ID, [wide, wide]);
    expect(bytesOf(summary)).toBeLessThanOrEqual(400);
    expect(summary).toMatch(/\n… \(\+\d+ more keys\)\n── head ──\n\{"field_number_0":0/);
  });
});

describe("summarizeJsonObject", () => {
  it("follows the seed's layout: key count, each key with its type and size", () => {
    const value = {
      query: "yoake",
      total: 1234,
      ok: true,
      next: null,
      results: [1, 2, 3],
      meta: { a: 1, b: 2 },
    };
    expect(summarizeJsonObject(ID, value)).toBe(
      [
        `[blob:${ID}] json_object | 6 keys`,
        "── keys ──",
        "query: string (5 bytes)",
        "total: number",
        "ok: boolean",
        "next: null",
        "results: array (3 entries)",
        "meta: object (2 keys)",
      ].join("\n"),
    );
  });

  it("is the header alone for an empty object", () => {
    expect(summarizeJsonObject(ID, {})).toBe(`[blob:${ID}] json_object | 0 keys`);
  });

  it("lists as many keys as fit and counts the others", () => {
    const value: { [key: string]: JsonValue } = {};
    for (let i = 0; i < 100; i++) value[`キー${i}`] = "値".repeat(i);
    const summary = summarizeJsonObject(ID, value);
    expect(bytesOf(summary)).toBeLessThanOrEqual(400);
    expect(wellFormed(summary)).toBe(true);
    const last = summary.split("\n").at(-1) ?? "";
    const listed = summary.split("\n").length - 3;
    expect(last).toBe(`… (+${100 - listed} more keys)`);
  });

  it("cuts a single key name too long for the whole summary", () => {
    const summary = summarizeJsonObject(ID, { ["k".repeat(2000)]: 1 });
    expect(bytesOf(summary)).toBeLessThanOrEqual(400);
    expect(summary.split("\n")[2]).toMatch(/^k+…$/);
  });
});

describe("summarizeJsonArray with value ranges", () => {
  it("gives each key's range over every entry: numbers, few strings, many strings, arrays", () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({
      id: i + 3,
      plan: ["free", "team", "business"][i % 3] as string,
      created: `2024-${String((i % 12) + 1).padStart(2, "0")}-01`,
      tags: Array.from({ length: i % 4 }, () => "t"),
      note: i === 7 ? null : "n",
    }));
    const lines = summarizeJsonArray(ID, entries, 1_024, true).split("\n");
    expect(lines.slice(0, 7)).toEqual([
      `[blob:${ID}] json_array | 40 entries`,
      "── schema ──",
      "id: number 3..42",
      "plan: string business|free|team",
      'created: string "2024-01-01".."2024-12-01"',
      "tags: array 0..3 entries",
      "note: string|null n",
    ]);
    // Without the flag, the seed's schema.
    expect(summarizeJsonArray(ID, entries, 1_024).split("\n")[2]).toBe("id: number");
  });
});
