import path from "node:path";
import { describe, expect, it } from "vitest";
import { toolCallView, toolKind } from "./tool-call-view.js";

const ROOT = path.resolve("/home/ada/repo");

describe("toolKind", () => {
  it("knows the Pod's tools by name", () => {
    expect(["read_file", "inspect", "write_file", "edit_file", "grep", "glob"].map(toolKind)).toEqual([
      "read",
      "read",
      "edit",
      "edit",
      "search",
      "search",
    ]);
  });

  it("reads other tools' names from their last telling word, so a server prefix weighs less", () => {
    expect(toolKind("filesystem__read_text_file")).toBe("read");
    expect(toolKind("filesystem__search_files")).toBe("search");
    expect(toolKind("web__read_page")).toBe("read");
    expect(toolKind("run_tests")).toBe("execute");
    expect(toolKind("shell__bash")).toBe("execute");
    expect(toolKind("files__move_file")).toBe("move");
    expect(toolKind("fetch")).toBe("fetch");
    expect(toolKind("everything__echo")).toBe("other");
    expect(toolKind("toString")).toBe("other");
    // The same answer a second time, from the cache.
    expect(toolKind("filesystem__read_text_file")).toBe("read");
  });
});

describe("toolCallView", () => {
  it("titles a call by its telling argument and locates the file it reads, at the read's first line", () => {
    expect(
      toolCallView({ name: "read_file", arguments: { path: "src/a.ts", offset: 40, limit: 10 } }, ROOT),
    ).toEqual({
      title: "read_file src/a.ts",
      kind: "read",
      locations: [{ path: path.join(ROOT, "src/a.ts"), line: 40 }],
    });
  });

  it("locates edits, keeps absolute paths, and gives searches and odd arguments no location", () => {
    expect(toolCallView({ name: "edit_file", arguments: { path: "/tmp/x.ts" } }, ROOT).locations).toEqual([
      { path: path.resolve("/tmp/x.ts") },
    ]);
    expect(toolCallView({ name: "grep", arguments: { pattern: "TODO", path: "src" } }, ROOT)).toEqual({
      title: 'grep "TODO" in src',
      kind: "search",
      locations: [],
    });
    expect(toolCallView({ name: "read_file", arguments: undefined }, ROOT)).toEqual({
      title: "read_file",
      kind: "read",
      locations: [],
    });
    expect(toolCallView({ name: "read_file", arguments: { path: "" } }, ROOT).locations).toEqual([]);
  });
});
