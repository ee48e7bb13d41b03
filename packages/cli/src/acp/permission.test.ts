import path from "node:path";
import { describe, expect, it } from "vitest";
import { PERMISSION_OPTIONS, permissionDecision, permissionToolCall, REJECTED_REASON } from "./permission.js";

const ROOT = path.resolve("/home/ada/repo");

describe("permissionDecision", () => {
  it("maps each offered option to the Pod's decision", () => {
    const pick = (optionId: string) => permissionDecision({ outcome: "selected", optionId });
    expect(PERMISSION_OPTIONS.map((o) => pick(o.optionId))).toEqual([
      "allow_once",
      "allow_session",
      { deny: REJECTED_REASON },
    ]);
  });

  it("says cancelled for a cancelled question, and rejects an option it never offered", () => {
    expect(permissionDecision({ outcome: "cancelled" })).toBe("cancelled");
    expect(permissionDecision({ outcome: "selected", optionId: "allow_forever" })).toEqual({
      deny: REJECTED_REASON,
    });
  });
});

describe("permissionToolCall", () => {
  it("shows the call with its file and the diff it would make", () => {
    const args = { path: "src/a.ts", old_string: "helo", new_string: "hello" };
    const update = permissionToolCall(
      {
        id: "perm-1",
        callId: "toolu_1",
        tool: "edit_file",
        arguments: args,
        preview: { ok: true, path: "src/a.ts", diff: "-helo\n+hello", truncated: true, newFile: false },
      },
      ROOT,
    );
    expect(update).toEqual({
      toolCallId: "toolu_1",
      title: "edit_file src/a.ts",
      kind: "edit",
      status: "pending",
      rawInput: args,
      locations: [{ path: path.join(ROOT, "src/a.ts") }],
      content: [
        {
          type: "content",
          content: { type: "text", text: "```diff\n-helo\n+hello\n```\n(the diff is cut short)" },
        },
      ],
    });
  });

  it("says why there is no preview, and has no content without one", () => {
    const failing = permissionToolCall(
      {
        id: "p",
        callId: "c",
        tool: "edit_file",
        arguments: {},
        preview: { ok: false, message: "old_string was not found" },
      },
      ROOT,
    );
    expect(failing.content).toEqual([
      { type: "content", content: { type: "text", text: "No preview: old_string was not found" } },
    ]);
    const plain = permissionToolCall({ id: "p", callId: "c", tool: "deploy", arguments: {} }, ROOT);
    expect(plain).not.toHaveProperty("content");
    expect(plain).not.toHaveProperty("locations");
  });
});
