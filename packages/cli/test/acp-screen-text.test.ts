/**
 * `yoake acp` with hostile bytes in a tool's output and arguments: the tool content and titles an
 * editor shows (live, and replayed by `session/load`) hold placeholders, never a control.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { choose, contentOf, initialize, killEditors, startEditor, updatesOf } from "./acp-editor.js";
import { headlessFixture } from "./cli-test-kit.js";
import { foreignControls, HOSTILE_TEXT, setClipboard, setTitle } from "./screen-bytes.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;

afterEach(async () => {
  killEditors();
  await fixture?.close();
  fixture = undefined;
});

/** The titles and the text contents of the tool call `toolCallId` in `updates`. */
function toolCallText(updates: ReturnType<typeof updatesOf>, toolCallId: string): string {
  const parts: string[] = [];
  for (const u of updates)
    if (
      (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
      u.toolCallId === toolCallId
    ) {
      if (u.title != null) parts.push(u.title);
      for (const c of u.content ?? [])
        if (c.type === "content" && c.content.type === "text") parts.push(c.content.text);
    }
  return parts.join("\n");
}

describe("yoake acp and untrusted bytes", () => {
  it("gives the editor tool content and titles as screen text, live and replayed", async () => {
    const f = await headlessFixture({ "src/a.txt": "alpha\n" });
    fixture = f;
    const root = f.project.dir;
    // A file a cloned repository ships: its content is what read_file returns.
    await writeFile(path.join(root, "src", `b${setClipboard()}.txt`), HOSTILE_TEXT);
    const editor = startEditor(root, f.env);
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request("session/new", { cwd: root, mcpServers: [] });
    f.provider.enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_read",
            name: "read_file",
            arguments: { path: `src/b${setClipboard()}.txt` },
          },
          {
            type: "tool_call",
            id: "toolu_glob",
            name: `glob${setTitle("NAME")}`,
            arguments: { pattern: "src/*" },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Read." }] },
    );
    const turn = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read it" }],
    });
    expect(turn.stopReason).toBe("end_turn");

    const live = updatesOf(editor, sessionId);
    const read = toolCallText(live, "toolu_read");
    expect(foreignControls(read)).toEqual([]);
    expect(read).toContain("read_file src/b␛]52;c;");
    expect(contentOf(live, "toolu_read")).toContain("title ␛]0;PWNED-TITLE␇");
    expect(contentOf(live, "toolu_read")).toContain("bidi ⟨U+202E⟩evil⟨U+202C⟩");
    const unknown = toolCallText(live, "toolu_glob");
    expect(foreignControls(unknown)).toEqual([]);
    expect(unknown).toContain("glob␛]0;NAME␇");

    // An edit asks first: its diff preview holds what the model would write.
    f.provider.enqueue(
      { blocks: [{ type: "tool_call", id: "toolu_a", name: "read_file", arguments: { path: "src/a.txt" } }] },
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_edit",
            name: "edit_file",
            arguments: {
              path: "src/a.txt",
              old_string: "alpha",
              new_string: `beta ${setTitle("EDIT-TITLE")}`,
            },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Edited." }] },
    );
    editor.answerPermissions(choose("allow_once"));
    const edit = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "edit it" }],
    });
    expect(edit.stopReason).toBe("end_turn");
    const preview = editor.permissionRequests[0]?.toolCall.content?.[0];
    const previewText =
      preview?.type === "content" && preview.content.type === "text" ? preview.content.text : "";
    expect(previewText).toContain("+beta ␛]0;EDIT-TITLE␇");
    expect(foreignControls(previewText)).toEqual([]);
    expect(contentOf(updatesOf(editor, sessionId), "toolu_edit")).toContain("+beta ␛]0;EDIT-TITLE␇");

    // The session replayed for an editor that opens it again.
    expect(await editor.close()).toBe(0);
    const again = startEditor(root, f.env);
    await initialize(again);
    await again.connection.agent.request("session/load", { sessionId, cwd: root, mcpServers: [] });
    const replayed = toolCallText(updatesOf(again, sessionId), "toolu_read");
    expect(foreignControls(replayed)).toEqual([]);
    expect(replayed).toContain("title ␛]0;PWNED-TITLE␇");
  }, 60_000);
});
