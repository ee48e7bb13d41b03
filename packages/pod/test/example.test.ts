/** The README's example (`examples/pod-from-manifest.ts`) runs, and prints what the README shows. */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const example = path.resolve(import.meta.dirname, "../examples/pod-from-manifest.ts");

describe("examples/pod-from-manifest.ts", () => {
  it("edits the referenced file after approval and finishes", () => {
    const output = execFileSync(
      process.execPath,
      ["--conditions=@yoake/source", "--import", "tsx", example],
      {
        encoding: "utf8",
        timeout: 30_000,
      },
    );
    expect(output).toBe(
      [
        "edit_file asks to change:",
        "--- a/src/greet.ts",
        "+++ b/src/greet.ts",
        "@@ -1,1 +1,1 @@",
        '-export const greet = () => "Helo";',
        '+export const greet = () => "Hello";',
        "Fixed the typo in the greeting.",
        "[finished]",
        "",
      ].join("\n"),
    );
  });
});
