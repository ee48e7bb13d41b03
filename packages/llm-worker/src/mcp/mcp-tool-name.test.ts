import { describe, expect, it } from "vitest";
import { isValidServerName, mcpToolNames } from "./mcp-tool-name.js";

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("mcpToolNames", () => {
  it("prefixes each tool with the server name and keeps valid names as they are", () => {
    const names = mcpToolNames("everything", ["echo", "get-sum", "trigger_long"]);
    expect([...names]).toEqual([
      ["echo", "everything__echo"],
      ["get-sum", "everything__get-sum"],
      ["trigger_long", "everything__trigger_long"],
    ]);
  });

  it("replaces characters the providers refuse with _", () => {
    const names = mcpToolNames("fs", ["files.read", "list dir", "résumé/get"]);
    expect(names.get("files.read")).toBe("fs__files_read");
    expect(names.get("list dir")).toBe("fs__list_dir");
    expect(names.get("résumé/get")).toBe("fs__r_sum__get");
    for (const name of names.values()) expect(name).toMatch(PROVIDER_NAME);
  });

  it("cuts a name over 64 characters and ends it with a hash of the MCP name, so cut names stay apart", () => {
    const long = "a".repeat(80);
    const names = mcpToolNames("server", [`${long}_one`, `${long}_two`]);
    const one = names.get(`${long}_one`) ?? "";
    const two = names.get(`${long}_two`) ?? "";
    expect(one).toHaveLength(64);
    expect(two).toHaveLength(64);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^server__a+_[0-9a-f]{8}$/);
    expect(one).toMatch(PROVIDER_NAME);
  });

  it("keeps the plain name for the tool that needed no change when two names become the same", () => {
    const names = mcpToolNames("s", ["a.b", "a_b", "a b"]);
    expect(names.get("a_b")).toBe("s__a_b");
    expect(names.get("a.b")).toMatch(/^s__a_b_[0-9a-f]{8}$/);
    expect(names.get("a b")).toMatch(/^s__a_b_[0-9a-f]{8}$/);
    expect(new Set(names.values()).size).toBe(3);
  });

  it("does not depend on the order of the listing", () => {
    const tools = ["a.b", "a_b", "a b", "x".repeat(70), "plain"];
    const forward = mcpToolNames("s", tools);
    const backward = mcpToolNames("s", [...tools].reverse());
    for (const tool of tools) expect(backward.get(tool)).toBe(forward.get(tool));
  });

  it("never gives two tools one name, even a tool literally named like another's hashed name", () => {
    const hashed = mcpToolNames("s", ["x.y", "x_y"]).get("x.y") ?? "";
    const literal = hashed.slice("s__".length);
    const names = mcpToolNames("s", ["x.y", "x_y", literal]);
    expect(names.get(literal)).toBe(hashed);
    expect(names.get("x.y")).toBe(`${hashed}_2`);
    expect(new Set(names.values()).size).toBe(3);
  });
});

describe("isValidServerName", () => {
  it("accepts 1 to 32 of a-z A-Z 0-9 _ - and nothing else", () => {
    expect(isValidServerName("everything")).toBe(true);
    expect(isValidServerName("my-server_2")).toBe(true);
    expect(isValidServerName("a".repeat(32))).toBe(true);
    expect(isValidServerName("a".repeat(33))).toBe(false);
    expect(isValidServerName("")).toBe(false);
    expect(isValidServerName("my.server")).toBe(false);
    expect(isValidServerName("my server")).toBe(false);
  });
});
