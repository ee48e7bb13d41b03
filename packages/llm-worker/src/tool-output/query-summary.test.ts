import { describe, expect, it } from "vitest";
import { queryOfArguments, queryTerms, summarizeTextForQuery } from "./query-summary.js";
import { summarize } from "./summary.js";

const ID = "01890a5d-ac96-774b-bcce-b302099a8057";
const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");
/** 1,000 lines of a build log; lines 400 and 731 are errors. */
const buildLog = Array.from({ length: 1_000 }, (_, i) =>
  i === 399
    ? "src/net/lease.ts(88,7): error TS2322: Type 'string' is not assignable to type 'number'."
    : i === 730
      ? "src/store/ledger.ts(12,3): ERROR TS2554: Expected 2 arguments, but got 1."
      : `[${String(i).padStart(4, "0")}] compiled module ${i}`,
).join("\n");

describe("queryOfArguments", () => {
  it("takes the first usual query argument that is a non-empty string", () => {
    expect(queryOfArguments({ path: "src", pattern: "withRetry" })).toBe("withRetry");
    expect(queryOfArguments({ query: " lease ", pattern: "x" })).toBe("lease");
    expect(queryOfArguments({ pattern: "", q: "ledger" })).toBe("ledger");
    expect(queryOfArguments({ path: "src" })).toBeUndefined();
    expect(queryOfArguments(["pattern"])).toBeUndefined();
    expect(queryOfArguments("pattern")).toBeUndefined();
  });
});

describe("queryTerms", () => {
  it("reads a regular expression as literal alternatives, lower-cased", () => {
    expect(queryTerms("Error|warn\\.ing|x")).toEqual(["error", "warn.ing"]);
  });
});

describe("summarizeTextForQuery", () => {
  it("shows the matching lines with their numbers and context, a short head and the tail", () => {
    const summary = summarizeTextForQuery(ID, buildLog, "error", 1_024) ?? "";
    expect(summary.split("\n")).toEqual([
      `[blob:${ID}] text | 1000 lines | 2 lines match "error"`,
      "── head ──",
      "[0000] compiled module 0",
      "[0001] compiled module 1",
      "── matches ──",
      "399- [0398] compiled module 398",
      "400: src/net/lease.ts(88,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "401- [0400] compiled module 400",
      "730- [0729] compiled module 729",
      "731: src/store/ledger.ts(12,3): ERROR TS2554: Expected 2 arguments, but got 1.",
      "732- [0731] compiled module 731",
      "── tail ──",
      "[0999] compiled module 999",
    ]);
  });

  it("keeps to the limit, dropping context before matches", () => {
    const summary = summarizeTextForQuery(ID, buildLog, "error", 400) ?? "";
    expect(bytesOf(summary)).toBeLessThanOrEqual(400);
    expect(summary).toContain("400: src/net/lease.ts(88,7): error TS2322");
  });

  it("leaves the seed's format when nothing outside the head and tail matches", () => {
    expect(summarizeTextForQuery(ID, buildLog, "no such thing", 1_024)).toBeUndefined();
    expect(summarizeTextForQuery(ID, buildLog, "[0000]", 1_024)).toBeUndefined();
    expect(summarize(ID, { kind: "text", text: buildLog }, 400, { query: "absent" })).toBe(
      summarize(ID, { kind: "text", text: buildLog }, 400),
    );
  });

  it("is what summarize gives a text with a query", () => {
    const summary = summarize(ID, { kind: "text", text: buildLog }, 1_024, { query: "TS2554" });
    expect(summary).toContain("731: src/store/ledger.ts(12,3)");
  });
});
