import { describe, expect, it } from "vitest";
import { fuzzyScore, rankPaths } from "./fuzzy-match.js";

const paths = [
  "packages/pod/src/scope/scoped-fs.ts",
  "packages/pod/src/scope/rules.ts",
  "packages/cli/src/tui/components/status-bar.tsx",
  "README.md",
  "docs/readme-old.md",
  "packages/cli/src/tui/state/ui-reducer.ts",
];

describe("fuzzy matching", () => {
  it("matches subsequences case-insensitively and refuses the rest", () => {
    expect(fuzzyScore("sfs", "packages/pod/src/scope/scoped-fs.ts")?.positions).toHaveLength(3);
    expect(fuzzyScore("RDME", "README.md")).toBeDefined();
    expect(fuzzyScore("xyz", "README.md")).toBeUndefined();
  });

  it("ranks a file-name match above scattered characters, and a shorter path above a longer one", () => {
    expect(rankPaths("readme", paths, 3).map((m) => m.path)).toEqual(["README.md", "docs/readme-old.md"]);
    expect(rankPaths("reducer", paths, 1)[0]?.path).toBe("packages/cli/src/tui/state/ui-reducer.ts");
    expect(rankPaths("scfs", paths, 1)[0]?.path).toBe("packages/pod/src/scope/scoped-fs.ts");
  });

  it("gives the shortest paths for an empty query, and at most the limit", () => {
    const top = rankPaths("", paths, 2);
    expect(top.map((m) => m.path)).toEqual(["README.md", "docs/readme-old.md"]);
  });

  it("marks the characters that matched", () => {
    expect(fuzzyScore("bar", "status-bar.tsx")?.positions).toEqual([7, 8, 9]);
  });
});
