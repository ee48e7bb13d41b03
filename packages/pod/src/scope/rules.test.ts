import { describe, expect, it } from "vitest";
import { allowGrants, denyRefuses, describeRule, pathCovers } from "./rules.js";

describe("pathCovers", () => {
  it("covers the root itself, recursive or not", () => {
    expect(pathCovers("/p/src", true, "/p/src")).toBe(true);
    expect(pathCovers("/p/src", false, "/p/src")).toBe(true);
  });

  it("covers every descendant of a recursive rule", () => {
    expect(pathCovers("/p/src", true, "/p/src/a")).toBe(true);
    expect(pathCovers("/p/src", true, "/p/src/a/b/c.ts")).toBe(true);
  });

  it("covers only direct children of a non-recursive rule", () => {
    expect(pathCovers("/p/docs", false, "/p/docs/guide.md")).toBe(true);
    expect(pathCovers("/p/docs", false, "/p/docs/sub/deep.md")).toBe(false);
  });

  it("does not mistake a sibling with a common prefix for a child", () => {
    expect(pathCovers("/p/src", true, "/p/src-old/a.ts")).toBe(false);
    expect(pathCovers("/p/src", true, "/p/sr")).toBe(false);
    expect(pathCovers("/p/src", true, "/p")).toBe(false);
  });

  it("handles the file-system root as a rule root", () => {
    expect(pathCovers("/", true, "/etc/passwd")).toBe(true);
    expect(pathCovers("/", false, "/etc")).toBe(true);
    expect(pathCovers("/", false, "/etc/passwd")).toBe(false);
  });
});

describe("access", () => {
  it("lets a write allow rule grant reads, and a read allow rule grant only reads", () => {
    expect(allowGrants("write", "write")).toBe(true);
    expect(allowGrants("write", "read")).toBe(true);
    expect(allowGrants("read", "read")).toBe(true);
    expect(allowGrants("read", "write")).toBe(false);
  });

  it("lets a read deny rule refuse everything, and a write deny rule refuse only writes", () => {
    expect(denyRefuses("read", "read")).toBe(true);
    expect(denyRefuses("read", "write")).toBe(true);
    expect(denyRefuses("write", "write")).toBe(true);
    expect(denyRefuses("write", "read")).toBe(false);
  });
});

describe("describeRule", () => {
  it("names the kind, access, path, recursion and source", () => {
    expect(describeRule("deny", { path: ".git", access: "write", recursive: true, source: "defaults" })).toBe(
      'deny write ".git" (recursive, from defaults)',
    );
    expect(describeRule("allow", { path: "docs", access: "read", recursive: false })).toBe(
      'allow read "docs" (not recursive)',
    );
  });
});
