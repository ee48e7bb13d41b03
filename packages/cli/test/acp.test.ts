import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROTOCOL_VERSION, type StopReason } from "@agentclientprotocol/sdk";
import { encodeScripted, type ScriptedResponse } from "@yoake/llm-worker/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  choose,
  chunks,
  contentOf,
  initialize,
  killEditors,
  startEditor,
  statusesOf,
  updatesOf,
} from "./acp-editor.js";
import { headlessFixture, toolResults, userTexts } from "./cli-test-kit.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;

afterEach(async () => {
  killEditors();
  await fixture?.close();
  fixture = undefined;
});

const GREET = 'export const greet = () => "helo";\n';

describe("yoake acp, driven by an ACP client over a child process's stdio", () => {
  it("runs whole prompts with tool calls, approvals asked and denied, cancellation, and a resumed session", async () => {
    const f = await headlessFixture({ "src/greet.ts": GREET });
    fixture = f;
    const root = f.project.dir;
    const greetPath = path.join(root, "src", "greet.ts");

    // ── initialize and a new session ──
    const editor = startEditor(root, f.env);
    const init = await initialize(editor);
    expect(init).toMatchObject({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { embeddedContext: true },
        sessionCapabilities: { resume: {}, close: {} },
      },
      agentInfo: { name: "yoake" },
    });
    const { sessionId } = await editor.connection.agent.request("session/new", { cwd: root, mcpServers: [] });
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    // ── prompt 1: thinking, text, read_file, then edit_file, which the user allows ──
    f.provider.enqueue(
      {
        blocks: [
          { type: "thinking", text: "The typo must be in greet.", signature: "sig-1" },
          { type: "text", text: "Reading it first." },
          { type: "tool_call", id: "toolu_read", name: "read_file", arguments: { path: "src/greet.ts" } },
        ],
      },
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_edit",
            name: "edit_file",
            arguments: { path: "src/greet.ts", old_string: "helo", new_string: "hello" },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Fixed the typo." }] },
    );
    editor.answerPermissions(choose("allow_once"));
    const first = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "Fix the typo in " },
        { type: "resource_link", uri: pathToFileURL(greetPath).href, name: "greet.ts" },
      ],
    });
    expect(first.stopReason).toBe<StopReason>("end_turn");
    expect(await readFile(greetPath, "utf8")).toBe('export const greet = () => "hello";\n');

    // The resource link became a file reference: the Pod attached the file for the model.
    const firstBody = f.provider.requests[0]?.body;
    expect(userTexts(firstBody).join("\n")).toContain("Fix the typo in @src/greet.ts");
    expect(JSON.stringify(firstBody)).toContain("[File: src/greet.ts]");

    const turn1 = updatesOf(editor, sessionId);
    expect(chunks(turn1, "agent_thought_chunk")).toBe("The typo must be in greet.");
    expect(chunks(turn1, "agent_message_chunk")).toBe("Reading it first.Fixed the typo.");
    expect(turn1.filter((u) => u.sessionUpdate === "agent_message_chunk").length).toBeGreaterThan(1);

    expect(statusesOf(turn1, "toolu_read")).toEqual(["pending", "in_progress", "completed"]);
    expect(contentOf(turn1, "toolu_read")).toContain('export const greet = () => "helo";');
    expect(turn1.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_read")).toMatchObject(
      {
        kind: "read",
        title: "read_file",
      },
    );
    expect(
      turn1.find(
        (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_read" && u.title != null,
      ),
    ).toMatchObject({
      title: "read_file src/greet.ts",
      kind: "read",
      locations: [{ path: greetPath }],
      rawInput: { path: "src/greet.ts" },
    });

    expect(statusesOf(turn1, "toolu_edit")).toEqual(["pending", "in_progress", "completed"]);
    expect(contentOf(turn1, "toolu_edit")).toContain("Edited src/greet.ts");
    expect(editor.permissionRequests).toHaveLength(1);
    const asked = editor.permissionRequests[0];
    expect(asked?.sessionId).toBe(sessionId);
    expect(asked?.toolCall).toMatchObject({
      toolCallId: "toolu_edit",
      kind: "edit",
      locations: [{ path: greetPath }],
    });
    expect(asked?.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    const preview = asked?.toolCall.content?.[0];
    expect(
      preview?.type === "content" && preview.content.type === "text" ? preview.content.text : "",
    ).toContain('-export const greet = () => "helo";\n+export const greet = () => "hello";');
    // The permission request came while the call was pending, before it ran.
    const editRunning = turn1.findIndex(
      (u) =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_edit" && u.status === "in_progress",
    );
    expect(editRunning).toBeGreaterThan(-1);

    // ── prompt 2: an edit the user rejects ──
    const from2 = editor.updates.length;
    f.provider.enqueue(
      {
        blocks: [
          {
            type: "tool_call",
            id: "toolu_edit2",
            name: "edit_file",
            arguments: { path: "src/greet.ts", old_string: "hello", new_string: "howdy" },
          },
        ],
      },
      { blocks: [{ type: "text", text: "Understood, I left it alone." }] },
    );
    editor.answerPermissions(choose("reject_once"));
    const second = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Make it say howdy." }],
    });
    expect(second.stopReason).toBe("end_turn");
    expect(await readFile(greetPath, "utf8")).toBe('export const greet = () => "hello";\n');
    const turn2 = updatesOf(editor, sessionId, from2);
    expect(statusesOf(turn2, "toolu_edit2")).toEqual(["pending", "failed"]);
    expect(contentOf(turn2, "toolu_edit2")).toContain("rejected by the user");
    expect(chunks(turn2, "agent_message_chunk")).toBe("Understood, I left it alone.");
    const denied = toolResults(f.provider.requests.at(-1)?.body).find((r) => r.tool_use_id === "toolu_edit2");
    expect(denied?.is_error).toBe(true);
    expect(JSON.stringify(denied?.content)).toContain("the user denied this call");

    // ── prompt 3: cancelled while the model streams ──
    const from3 = editor.updates.length;
    const long: ScriptedResponse = {
      blocks: [{ type: "text", text: "Working on it, this will take a while." }],
    };
    const wire = encodeScripted("anthropic", long);
    const firstDelta = wire.indexOf("\n\n", wire.indexOf("content_block_delta")) + 2;
    f.provider.enqueue({ fault: "stall", response: long, afterBytes: firstDelta });
    const cancelled = editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Refactor everything." }],
    });
    await editor.waitForUpdate(
      (u) =>
        u.sessionUpdate === "agent_message_chunk" &&
        u.content.type === "text" &&
        u.content.text === "Working ",
    );
    await editor.connection.agent.notify("session/cancel", { sessionId });
    expect((await cancelled).stopReason).toBe("cancelled");
    expect(chunks(updatesOf(editor, sessionId, from3), "agent_message_chunk")).toBe("Working ");

    // ── prompt 4: cancelled while the editor asks about an edit ──
    const from4 = editor.updates.length;
    f.provider.enqueue({
      blocks: [
        {
          type: "tool_call",
          id: "toolu_edit3",
          name: "edit_file",
          arguments: { path: "src/greet.ts", old_string: "hello", new_string: "hi" },
        },
      ],
    });
    // The editor cancels the turn instead of answering, and answers the pending question "cancelled".
    editor.answerPermissions(async (_request, signal) => {
      void editor.connection.agent.notify("session/cancel", { sessionId });
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve));
      return { outcome: { outcome: "cancelled" } };
    });
    const whileAsking = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Shorten the greeting." }],
    });
    expect(whileAsking.stopReason).toBe("cancelled");
    expect(statusesOf(updatesOf(editor, sessionId, from4), "toolu_edit3")).toEqual(["pending", "failed"]);
    expect(await readFile(greetPath, "utf8")).toBe('export const greet = () => "hello";\n');

    // ── the session goes on after both cancellations ──
    f.provider.enqueue({ blocks: [{ type: "text", text: "Still here." }] });
    const after = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Are you there?" }],
    });
    expect(after.stopReason).toBe("end_turn");

    // Closing standard input ends the agent cleanly.
    expect(await editor.close()).toBe(0);

    // ── a new process loads the session: the conversation is replayed, then continues ──
    const again = startEditor(root, f.env);
    await initialize(again);
    await again.connection.agent.request("session/load", { sessionId, cwd: root, mcpServers: [] });
    const replayed = updatesOf(again, sessionId);
    expect(chunks(replayed, "user_message_chunk")).toContain("Fix the typo in @src/greet.ts");
    expect(chunks(replayed, "agent_message_chunk")).toContain("Fixed the typo.");
    expect(chunks(replayed, "agent_thought_chunk")).toContain("The typo must be in greet.");
    expect(
      replayed.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_edit"),
    ).toMatchObject({
      status: "completed",
      kind: "edit",
    });
    expect(
      replayed.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "toolu_edit2"),
    ).toMatchObject({
      status: "failed",
    });

    f.provider.enqueue({ blocks: [{ type: "text", text: "We fixed greet.ts earlier." }] });
    const resumed = await again.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "What did we do?" }],
    });
    expect(resumed.stopReason).toBe("end_turn");
    const resumedTexts = JSON.stringify(f.provider.requests.at(-1)?.body);
    expect(resumedTexts).toContain("Fixed the typo.");
    expect(resumedTexts).toContain("What did we do?");
    expect(await again.close()).toBe(0);
    expect(again.stderr()).not.toMatch(/error/i);
  }, 60_000);

  it("answers a session it does not know, and a missing key, with JSON-RPC errors", async () => {
    const f = await headlessFixture();
    fixture = f;
    const root = f.project.dir;
    const editor = startEditor(root, { ...f.env, ANTHROPIC_API_KEY: undefined });
    await initialize(editor);
    await expect(
      editor.connection.agent.request("session/prompt", {
        sessionId: "nope",
        prompt: [{ type: "text", text: "hi" }],
      }),
    ).rejects.toMatchObject({ code: -32002 });
    await expect(
      editor.connection.agent.request("session/new", { cwd: root, mcpServers: [] }),
    ).rejects.toMatchObject({ message: expect.stringContaining("set ANTHROPIC_API_KEY") });
    expect(await editor.close()).toBe(0);
  }, 30_000);
});
