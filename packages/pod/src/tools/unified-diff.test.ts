import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIFF_CONTEXT_LINES } from "./limits.js";
import { unifiedDiff } from "./unified-diff.js";

/** The diff of the whole texts, without the window. */
function referenceDiff(name: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
    headerOptions: FILE_HEADERS_ONLY,
    stripTrailingCr: true,
  }).replace(/\n$/, "");
}

describe("unifiedDiff", () => {
  it("is empty when nothing changed", () => {
    expect(unifiedDiff("f", "same\n", "same\n")).toBe("");
  });

  it("numbers hunks deep in a long file by their place in the whole file", () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`);
    const before = `${lines.join("\n")}\n`;
    const after = before.replace("line 1500\n", "line 1500 changed\n");
    const diff = unifiedDiff("big.txt", before, after);
    expect(diff).toBe(
      [
        "--- a/big.txt",
        "+++ b/big.txt",
        "@@ -1497,7 +1497,7 @@",
        " line 1497",
        " line 1498",
        " line 1499",
        "-line 1500",
        "+line 1500 changed",
        " line 1501",
        " line 1502",
        " line 1503",
      ].join("\n"),
    );
  });

  it("marks a missing final newline", () => {
    expect(unifiedDiff("f", "a\nb", "a\nc")).toContain("\\ No newline at end of file");
  });

  it("leaves out the CRs of CRLF lines", () => {
    expect(unifiedDiff("f", "a\r\nb\r\n", "a\r\nc\r\n")).toBe(
      "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c",
    );
  });

  it("shows an absolute path as it is", () => {
    expect(unifiedDiff("/abs/f", "a\n", "b\n").split("\n").slice(0, 2)).toEqual(["--- /abs/f", "+++ /abs/f"]);
  });

  it("turns before into after, with as many changed lines as the diff of the whole texts", () => {
    // Repeated lines make several alignments equally short: the window may pick another one, so
    // the property is that the patch is right and minimal, not that it is the same text.
    const changedLines = (diff: string) => diff.split("\n").filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;
    const line = fc.constantFrom("", "a", "b", "c", "{", "}", "  return x;");
    const text = fc
      .tuple(fc.array(line, { maxLength: 30 }), fc.boolean())
      .map(([lines, finalNewline]) => lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : ""));
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, (before, from, length, insert) => {
        const start = before.length === 0 ? 0 : from % (before.length + 1);
        const end = Math.min(before.length, start + (length % 40));
        const after = before.slice(0, start) + insert + before.slice(end);
        const diff = unifiedDiff("f", before, after);
        if (before === after) {
          expect(diff).toBe("");
        } else {
          expect(applyPatch(before, diff)).toBe(after);
          expect(changedLines(diff)).toBe(changedLines(referenceDiff("f", before, after)));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
