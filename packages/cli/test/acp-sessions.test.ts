import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  type ClientConnection,
  client,
  PROTOCOL_VERSION,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { YoakeAgent } from "../src/acp/agent.js";
import { headlessFixture, toolResults, userTexts } from "./cli-test-kit.js";

// The agent and an SDK client connected in-process: the same handlers `yoake acp` serves (the
// child-process test in acp.test.ts covers the stdio transport), for the less common paths.

interface Harness {
  agent: YoakeAgent;
  connection: ClientConnection;
  updates: SessionNotification[];
  log: string[];
}

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;
let harness: Harness | undefined;

afterEach(async () => {
  harness?.connection.close();
  await harness?.agent.closeAll();
  harness = undefined;
  await fixture?.close();
  fixture = undefined;
});

async function connect(
  env: Record<string, string | undefined>,
  { notices = false, permission = "allow_once" }: { notices?: boolean; permission?: string } = {},
): Promise<Harness> {
  const log: string[] = [];
  const agent = new YoakeAgent({ env, version: "0.0.0-test", log: (line) => log.push(line) });
  const updates: SessionNotification[] = [];
  const editor = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    })
    .onRequest("session/request_permission", () => ({
      outcome:
        permission === "cancelled"
          ? { outcome: "cancelled" as const }
          : { outcome: "selected" as const, optionId: permission },
    }));
  const connection = editor.connect(agent.app);
  await connection.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: notices ? { session: { notices: {} } } : {},
  });
  harness = { agent, connection, updates, log };
  return harness;
}

const updatesOf = (h: Harness, sessionId: string): SessionUpdate[] =>
  h.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);

describe("yoake acp sessions", () => {
  it("closes a session, then resumes it from its log without a replay", async () => {
    fixture = await headlessFixture();
    const root = fixture.project.dir;
    const h = await connect(fixture.env);
    const { sessionId } = await h.connection.agent.request("session/new", { cwd: root, mcpServers: [] });
    fixture.provider.enqueue({ blocks: [{ type: "text", text: "Noted: the port is 8080." }] });
    await h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Remember: the port is 8080." }],
    });

    await h.connection.agent.request("session/close", { sessionId });
    await expect(
      h.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }),
    ).rejects.toMatchObject({ code: -32002 });

    const before = h.updates.length;
    await h.connection.agent.request("session/resume", { sessionId, cwd: root });
    expect(h.updates.length).toBe(before);
    fixture.provider.enqueue({ blocks: [{ type: "text", text: "8080." }] });
    const answer = await h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Which port?" }],
    });
    expect(answer.stopReason).toBe("end_turn");
    const body = fixture.provider.requests.at(-1)?.body;
    expect(userTexts(body)).toEqual(["Remember: the port is 8080.", "Which port?"]);
    expect(JSON.stringify(body)).toContain("Noted: the port is 8080.");
  });

  it("refuses to load or resume a session that does not exist", async () => {
    fixture = await headlessFixture();
    const root = fixture.project.dir;
    const h = await connect(fixture.env);
    const missing = "0190aaaa-0000-7000-8000-000000000000";
    await expect(
      h.connection.agent.request("session/load", { sessionId: missing, cwd: root, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002, message: expect.stringContaining(missing) });
    await expect(
      h.connection.agent.request("session/resume", { sessionId: missing, cwd: root }),
    ).rejects.toMatchObject({ code: -32002 });
    await expect(
      h.connection.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("sends embedded text to the model, and a file reference that fails as a notice", async () => {
    fixture = await headlessFixture();
    const root = fixture.project.dir;
    const h = await connect(fixture.env, { notices: true });
    const { sessionId } = await h.connection.agent.request("session/new", {
      cwd: root,
      mcpServers: [{ name: "fs", command: "mcp-fs", args: [], env: [] }],
    });
    expect(h.log.join("")).toContain("ignoring the client's 1 MCP server(s)");
    fixture.provider.enqueue({ blocks: [{ type: "text", text: "Bien." }] });
    await h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "Look at " },
        { type: "resource_link", uri: pathToFileURL(path.join(root, "missing.ts")).href, name: "missing.ts" },
        { type: "resource", resource: { uri: "zed:///rules/1", text: "Always answer in French." } },
      ],
    });
    const text = userTexts(fixture.provider.requests.at(-1)?.body).join("\n");
    expect(text).toContain("Look at [unresolved file ref: missing.ts]");
    expect(text).toContain("[Resource: zed:///rules/1]\nAlways answer in French.");
    const notice = updatesOf(h, sessionId).find((u) => u.sessionUpdate === "notice");
    expect(notice).toMatchObject({ severity: "warning", title: expect.stringContaining("missing.ts") });
    expect(h.log.join("")).toContain("yoake acp: warn:");
  });

  it("ends the turn cancelled when the editor answers a question so, and the next prompt drops the call", async () => {
    fixture = await headlessFixture({ "a.txt": "alpha\n" });
    const root = fixture.project.dir;
    const h = await connect(fixture.env, { permission: "cancelled" });
    const { sessionId } = await h.connection.agent.request("session/new", { cwd: root, mcpServers: [] });
    fixture.provider.enqueue({
      blocks: [
        {
          type: "tool_call",
          id: "toolu_w",
          name: "write_file",
          arguments: { path: "b.txt", content: "beta" },
        },
      ],
    });
    const asked = await h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Write b.txt" }],
    });
    expect(asked.stopReason).toBe("cancelled");
    expect(updatesOf(h, sessionId).at(-1)).toMatchObject({ toolCallId: "toolu_w", status: "failed" });

    fixture.provider.enqueue({ blocks: [{ type: "text", text: "Never mind then." }] });
    const next = await h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Forget it." }],
    });
    expect(next.stopReason).toBe("end_turn");
    const dropped = toolResults(fixture.provider.requests.at(-1)?.body).find(
      (r) => r.tool_use_id === "toolu_w",
    );
    expect(dropped?.is_error).toBe(true);
  });

  it("stops at the manifest's turn limit with max_turn_requests", async () => {
    fixture = await headlessFixture({ "a.txt": "alpha\n" });
    const root = fixture.project.dir;
    await writeFile(path.join(root, ".yoake", "manifest.toml"), "[limits]\nturns = 1\n");
    const h = await connect(fixture.env);
    const { sessionId } = await h.connection.agent.request("session/new", { cwd: root, mcpServers: [] });
    fixture.provider.enqueue({
      blocks: [{ type: "tool_call", id: "toolu_1", name: "read_file", arguments: { path: "a.txt" } }],
    });
    const response = await h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "Read a.txt" }],
    });
    expect(response.stopReason).toBe("max_turn_requests");
    // The call ran, and its update says so, even though the model never read the result.
    const updates = updatesOf(h, sessionId);
    expect(updates.at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", toolCallId: "toolu_1" });
    expect(updates.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed")).toBe(
      true,
    );
  });

  it("answers a failed turn with the provider's error, and refuses a second prompt while one runs", async () => {
    fixture = await headlessFixture();
    const root = fixture.project.dir;
    const h = await connect(fixture.env);
    const { sessionId } = await h.connection.agent.request("session/new", { cwd: root, mcpServers: [] });
    fixture.provider.enqueue({ fault: "status", status: 400, message: "prompt is malformed" });
    await expect(
      h.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }),
    ).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("prompt is malformed"),
      data: { kind: "invalid_request", status: 400 },
    });

    fixture.provider.enqueue({ fault: "stall" });
    const first = h.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "one" }],
    });
    await expect(
      h.connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "two" }] }),
    ).rejects.toMatchObject({ code: -32600 });
    await h.connection.agent.notify("session/cancel", { sessionId });
    expect((await first).stopReason).toBe("cancelled");
    await expect(
      h.connection.agent.request("session/prompt", { sessionId, prompt: [] }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses a session in a project whose manifest is not trusted, with the one-line reason", async () => {
    fixture = await headlessFixture({
      ".yoake/manifest.toml": '[[hooks]]\nevent = "prompt_submit"\ncommand = "touch hook-ran"\n',
    });
    const root = fixture.project.dir;
    const h = await connect(fixture.env);
    await expect(
      h.connection.agent.request("session/new", { cwd: root, mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32603,
      message: `${path.join(root, ".yoake/manifest.toml")} is not trusted: it asks for hooks; rerun with --trust-project to trust it`,
    });
  });
});
