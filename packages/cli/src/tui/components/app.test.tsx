import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { Pod } from "@yoake/pod";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listProjectFiles } from "../files/project-files.js";
import type { PodLike } from "../pod-like.js";
import { App } from "./app.js";

let base: string;
let mock: MockProvider;
let pod: Pod;

beforeEach(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-app-")));
  const project = path.join(base, "project");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  mkdirSync(path.join(project, "src"));
  writeFileSync(path.join(project, "src", "greet.ts"), "export const greet = 'Hello';\n");
  mock = await startMockProvider();
  pod = await Pod.create({
    cwd: project,
    env: { HOME: path.join(base, "home"), XDG_STATE_HOME: path.join(base, "state"), KEY: "k" },
    overrides: {
      model: {
        scheme: "anthropic",
        id: "mock-model",
        base_url: mock.baseURLFor("anthropic"),
        api_key_env: "KEY",
        prices: { input: 3, output: 15 },
      },
    },
  });
});
afterEach(async () => {
  await mock.close();
  rmSync(base, { recursive: true, force: true });
});

const until = (frame: () => string | undefined, text: string) =>
  vi.waitFor(() => expect(frame()).toContain(text), { timeout: 5000, interval: 10 });

function app() {
  return render(<App pod={pod} title="yoake test" loadFiles={() => listProjectFiles(pod.fs)} />);
}

describe("App on a real Pod", () => {
  it("attaches a file, shows the tool card and the approval, and counts tokens and cost", async () => {
    const usage = { inputTokens: 1000, outputTokens: 100 };
    mock.enqueue(
      {
        usage,
        blocks: [
          { type: "text", text: "Changing it." },
          {
            type: "tool_call",
            name: "edit_file",
            arguments: { path: "src/greet.ts", old_string: "Hello", new_string: "Hi" },
          },
        ],
      },
      { usage, blocks: [{ type: "text", text: "Now it says Hi." }] },
    );
    const view = app();
    await until(view.lastFrame, "yoake test");
    view.stdin.write("shorten @gre");
    await until(view.lastFrame, "src/greet.ts");
    view.stdin.write("\t");
    await until(view.lastFrame, "shorten @src/greet.ts ");
    view.stdin.write("\r");
    await until(view.lastFrame, "edit_file wants to run on src/greet.ts");
    expect(view.lastFrame()).toContain("awaiting your approval");
    expect(view.lastFrame()).toContain("+export const greet = 'Hi';");
    // At once: the prompt has the keys as soon as it is on screen (see KeyRouter).
    view.stdin.write("y");
    await until(view.lastFrame, "○ ready");
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("Now it says Hi.");
    expect(frame).toContain("● edit_file src/greet.ts done");
    // The file was attached whole: the model's request carried it.
    expect(JSON.stringify(mock.requests[0]?.body)).toContain("[File: src/greet.ts]");
    // 2 × (1000 in at $3/M + 100 out at $15/M) = $0.0090
    expect(frame).toContain("2.0k in · 200 out · $0.0090");
    view.unmount();
  });

  it("cancels a stalled turn on Esc and goes on with the same session", async () => {
    mock.enqueue({ fault: "stall" });
    mock.setHandler((request) => ({
      blocks: [
        { type: "text", text: `I got ${JSON.stringify(request.body).includes("hang on") ? "both" : "one"}.` },
      ],
    }));
    const view = app();
    await until(view.lastFrame, "yoake test");
    view.stdin.write("hang on\r");
    await until(view.lastFrame, "esc to cancel");
    // Esc once the request is out: the stalled reply is the one to cancel.
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1));
    view.stdin.write("\x1b");
    await until(view.lastFrame, "Cancelled. The session goes on.");
    view.stdin.write("again\r");
    await until(view.lastFrame, "I got both.");
    view.unmount();
  });

  it("queues a prompt sent during a turn and sends it when the turn ends; Esc clears the queue", async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    mock.setHandler(async (request) => {
      const number = mock.requests.length;
      if (number === 1) await gate;
      const sent = JSON.stringify(request.body);
      return {
        blocks: [{ type: "text", text: `Answer ${number}: ${sent.includes("second") ? "got it" : "-"}` }],
      };
    });
    const view = app();
    view.stdin.write("first\r");
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1));
    view.stdin.write("dropped\r");
    await until(view.lastFrame, "› queued · dropped");
    view.stdin.write("\x1b");
    await until(view.lastFrame, "Queued messages cleared.");
    expect(view.lastFrame()).not.toContain("queued · dropped");
    view.stdin.write("second\r");
    await until(view.lastFrame, "› queued · second");
    release();
    await until(view.lastFrame, "Answer 2: got it");
    expect(view.lastFrame()).not.toContain("queued ·");
    expect(mock.requests).toHaveLength(2);
    expect(JSON.stringify(mock.requests[1]?.body)).not.toContain("dropped");
    view.unmount();
  });

  it("Ctrl+C cancels the turn, clears the input, and on an empty idle input asks once more before leaving", async () => {
    mock.enqueue({ fault: "stall" });
    const view = app();
    await until(view.lastFrame, "○ ready");
    view.stdin.write("hang on\r");
    await vi.waitFor(() => expect(mock.requests).toHaveLength(1));
    view.stdin.write("\x03");
    await until(view.lastFrame, "Cancelled. The session goes on.");
    expect(view.lastFrame()).not.toContain("Ctrl+C again");
    view.stdin.write("draft");
    await until(view.lastFrame, "› draft");
    view.stdin.write("\x03");
    await vi.waitFor(() => expect(view.lastFrame()).not.toContain("› draft"));
    view.stdin.write("\x03");
    await until(view.lastFrame, "Press Ctrl+C again to exit");
    // Another key in between: the next Ctrl+C asks again.
    view.stdin.write("x\x7f\x03");
    view.stdin.write("still here");
    await until(view.lastFrame, "› still here");
    view.stdin.write("\x15\x03");
    await until(view.lastFrame, "Press Ctrl+C again to exit");
    view.stdin.write("\x03");
    await vi.waitFor(() => expect(view.lastFrame()).not.toContain("○ ready"));
    view.unmount();
  });

  it("/resume without an id opens a picker of the sessions, newest first; Enter resumes the chosen one", async () => {
    const resumed: string[] = [];
    const pod: PodLike = {
      run: async () => ({ status: "finished" }),
      respond: async () => ({ status: "finished" }),
      listen: () => () => undefined,
      history: [],
      sessionId: "s-new",
      listSessions: async () => [
        { id: "s-old", firstUserText: "the old question" },
        { id: "s-new", firstUserText: "the new question" },
      ],
      resumeSession: async (id) => {
        resumed.push(id);
      },
    };
    const view = render(<App pod={pod} loadFiles={async () => ({ paths: [], truncated: false })} />);
    view.stdin.write("/resume\r");
    await until(view.lastFrame, "Resume a session");
    const frame = view.lastFrame() ?? "";
    expect(frame.indexOf("the new question")).toBeLessThan(frame.indexOf("the old question"));
    view.stdin.write("\x1b[B");
    view.stdin.write("\r");
    await vi.waitFor(() => expect(resumed).toEqual(["s-old"]));
    await vi.waitFor(() => expect(view.lastFrame()).not.toContain("Resume a session"));
    view.unmount();
  });

  it("shows the MCP servers that failed before it opened", () => {
    const failing: PodLike = {
      run: async () => ({ status: "finished" }),
      respond: async () => ({ status: "finished" }),
      listen: () => () => undefined,
      mcpServers: () => [
        { name: "ok", state: "running", tools: 1 },
        { name: "ghost", state: "failed", tools: 0, error: "command not found: ghost-server" },
      ],
    };
    const view = render(<App pod={failing} loadFiles={async () => ({ paths: [], truncated: false })} />);
    const first = view.frames[0] ?? "";
    expect(first).toContain('MCP server "ghost" failed to start: command not found: ghost-server');
    expect(first).not.toContain('"ok"');
    view.unmount();
  });

  it("opens on a restored session: its history, and the approval its paused run waits on", async () => {
    const answers: unknown[] = [];
    const restored: PodLike = {
      history: [
        { type: "message", role: "user", text: "rename [unresolved file ref: a.ts]" },
        { type: "tool_call", callId: "c1", name: "write_file", arguments: '{"path":"b.ts","content":"x"}' },
      ],
      pendingPermission: {
        id: "p9",
        callId: "c1",
        tool: "write_file",
        arguments: { path: "b.ts", content: "x" },
      },
      run: async () => ({ status: "finished" }),
      respond: async (id, decision) => {
        answers.push({ id, decision });
        return { status: "finished" };
      },
      listen: () => () => undefined,
    };
    const view = render(<App pod={restored} loadFiles={async () => ({ paths: [], truncated: false })} />);
    const first = view.frames[0] ?? "";
    expect(first).toContain("Earlier in this session:");
    expect(first).toContain("› rename @a.ts");
    expect(first).toContain("write_file wants to run");
    view.stdin.write("a");
    await vi.waitFor(() => expect(answers).toEqual([{ id: "p9", decision: "allow_session" }]));
    view.unmount();
  });
});
