/**
 * `yoake serve` and the clients that attach to it, as real processes on a real socket: a served
 * Pod against the mock provider, a protocol client in this process watching it, and `yoake -p` /
 * `yoake` (in tmux) attached as child processes.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeScripted, type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { connectPod, type PodClient, type WireEvent } from "@yoake/pod/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { choose, initialize, killEditors, startEditor } from "./acp-editor.js";
import { type TempProject, tempProject, testEnv, toolResults } from "./cli-test-kit.js";
import {
  answer,
  type Child,
  held,
  start,
  startServer,
  until,
  writeCall,
  yoakeInEnv,
} from "./support/serve-kit.js";
import { hasTmux, inputLine, TmuxScreen } from "./tui-tmux.js";

/** Where the `n`th text delta event of an Anthropic stream ends. */
function endOfTextDelta(body: string, n: number): number {
  let end = 0;
  for (let i = 0; i < n; i++) end = body.indexOf("\n\n", body.indexOf('"text_delta"', end)) + 2;
  return end;
}

describe("yoake serve with attached clients", () => {
  let provider: MockProvider;
  let project: TempProject;
  let runtimeDir: string;
  let env: Record<string, string | undefined>;
  let server: Child;
  let socketPath: string;
  let watcher: PodClient;
  let events: WireEvent[];
  const children: Child[] = [];

  const yoake = (...args: string[]): Child => {
    const child = start(args, project.dir, env);
    children.push(child);
    return child;
  };
  const seen = (event: string, accept: (e: WireEvent) => boolean = () => true) =>
    events.some((e) => e.event === event && accept(e));

  beforeEach(async () => {
    provider = await startMockProvider();
    project = await tempProject();
    // Short and private to the test: the socket's path must stay under the 108-byte limit.
    runtimeDir = await mkdtemp(path.join(tmpdir(), "yr-"));
    env = { ...testEnv(project, provider), XDG_RUNTIME_DIR: runtimeDir };
    ({ server, socketPath } = await startServer(project.dir, env));
    expect(socketPath.startsWith(runtimeDir)).toBe(true);
    // It answers approvals in the first test, as a terminal UI would.
    watcher = await connectPod(socketPath, { clientName: "watcher", answersApprovals: true });
    events = [];
    watcher.listen((event) => events.push(event));
  });

  afterEach(async () => {
    killEditors();
    watcher.close();
    for (const child of children.splice(0)) child.process.kill("SIGKILL");
    server.process.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await provider.close();
    await project.remove();
    await rm(runtimeDir, { recursive: true, force: true });
  });

  it("two clients see the same events, and one approves the other's permission request", async () => {
    provider.setHandler((request) =>
      toolResults(request.body).length === 0 ? writeCall : answer("wrote it"),
    );
    const headless = yoake("-p", "write out.txt", "--output-format", "stream-json");
    const request = await watcher.next("permission_request");
    expect(request).toMatchObject({ tool: "write_file", callId: "toolu_write" });
    // The attached -p leaves the question to the other clients instead of denying it.
    await until(() => headless.stderr.includes("write_file waits for approval"));
    await watcher.respond(request.id, "allow_once");

    expect(await headless.exited).toBe(0);
    expect(await readFile(path.join(project.dir, "out.txt"), "utf8")).toBe("written\n");
    const printed = headless.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { event: string });
    const summary = printed.pop();
    expect(summary).toMatchObject({ event: "result", status: "finished", text: "wrote it" });
    // The same events, in the same order, as the watcher got them (less the run numbers).
    await until(() => events.filter((e) => e.event === "run_end").length === 2);
    const watched = events.map((event) => {
      if (event.event !== "run_end") return event;
      const { run: _run, ...rest } = event;
      return rest;
    });
    expect(printed).toEqual(JSON.parse(JSON.stringify(watched)));
    expect(printed.map((e) => e.event)).toContain("permission_resolved");
  }, 60_000);

  it("a run goes on when its client is killed, and Ctrl-C on an attached -p cancels through the protocol", async () => {
    const slow = held(answer("finished after all"));
    provider.setHandler(() => slow.reply);
    const first = yoake("-p", "a long task");
    await until(() => seen("turn_start"));
    first.process.kill("SIGKILL");
    await first.exited;
    slow.release();
    await until(() => seen("run_end"));
    expect(events.find((e) => e.event === "run_end")).toMatchObject({
      result: { status: "finished", text: "finished after all" },
    });

    // Ctrl-C: the attached client's signal becomes the protocol's cancel; the Pod cancels the run.
    const stalled = held(answer("never sent"));
    provider.setHandler(() => stalled.reply);
    events.length = 0;
    const second = yoake("-p", "another long task");
    await until(() => seen("turn_start"));
    second.process.kill("SIGINT");
    expect(await second.exited).toBe(130);
    await until(() => seen("run_end"));
    expect(events.find((e) => e.event === "run_end")).toMatchObject({ result: { status: "cancelled" } });
    stalled.release();
  }, 60_000);

  it("an editor (yoake acp) attaches: its prompt runs on the served Pod and its approval is asked in the editor", async () => {
    provider.setHandler((request) =>
      toolResults(request.body).length === 0 ? writeCall : answer("wrote it"),
    );
    const editor = startEditor(project.dir, env);
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request("session/new", {
      cwd: project.dir,
      mcpServers: [],
    });
    expect(sessionId).toBe(watcher.hello.status.sessionId);
    editor.answerPermissions(choose("allow_once"));
    const response = await editor.connection.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write out.txt from the editor" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(editor.permissionRequests).toHaveLength(1);
    expect(await readFile(path.join(project.dir, "out.txt"), "utf8")).toBe("written\n");
    // The run was the served Pod's: the watcher saw it, and the approval given in the editor.
    expect(events.find((e) => e.event === "run_start")).toMatchObject({
      input: "write out.txt from the editor",
    });
    expect(events.find((e) => e.event === "permission_resolved")).toMatchObject({ decision: "allow_once" });
    expect(editor.stderr()).toContain("attached to the Pod yoake serve runs");
    // The editor leaving leaves the Pod serving.
    expect(await editor.close()).toBe(0);
    expect((await watcher.status()).state).toBe("idle");
  }, 60_000);

  it("refuses what would fight the served Pod; --no-attach runs a Pod here", async () => {
    const second = yoake("serve");
    expect(await second.exited).toBe(2);
    expect(second.stderr).toBe(
      `yoake: a Pod already serves this project on ${socketPath}: attach to it with yoake\n`,
    );
    const shaped = yoake("-p", "hi", "--model", "anthropic/claude-sonnet-4-5");
    expect(await shaped.exited).toBe(2);
    expect(shaped.stderr).toBe(
      "yoake: --model cannot change the Pod yoake serve runs for this project: leave it out to attach to it, or give --no-attach\n",
    );
    provider.enqueue(answer("from a Pod of its own"));
    const own = yoake("-p", "hi", "--no-attach");
    expect(await own.exited).toBe(0);
    expect(own.stdout).toBe("from a Pod of its own\n");
    // The served Pod saw nothing of it.
    expect(events).toEqual([]);
  }, 60_000);

  it("a server that died leaves its socket: clients run a Pod of their own, and serve takes the socket again", async () => {
    watcher.close();
    server.process.kill("SIGKILL");
    await server.exited;
    expect(existsSync(socketPath)).toBe(true);
    provider.enqueue(answer("nobody served"));
    const own = yoake("-p", "hi");
    expect(await own.exited).toBe(0);
    expect(own.stdout).toBe("nobody served\n");

    server = start(["serve"], project.dir, env);
    await until(() => server.stdout.includes(`on ${socketPath}\n`) || server.process.exitCode !== null);
    expect(server.stderr).toBe("");
    watcher = await connectPod(socketPath, { clientName: "watcher" });
    expect(watcher.hello.projectRoot).toBe(project.dir);
  }, 60_000);

  it.skipIf(!hasTmux)(
    "yoake reattaches: the history so far, another client's live run; Esc cancels runs through the protocol",
    async () => {
      const screen = new TmuxScreen("serve");
      try {
        provider.enqueue(answer("the first answer"));
        const first = yoake("-p", "the first question");
        expect(await first.exited).toBe(0);

        screen.start(yoakeInEnv(env), project.dir);
        let shown = await screen.waitFor("attached to the Pod yoake serve runs", 30_000);
        shown = await screen.waitFor("the first answer");
        expect(shown).toContain("the first question");

        // Another client's run shows live: its input, then what streams. Esc here cancels it: the
        // run is not this client's, so the served Pod is asked to.
        const streamed = encodeScripted("anthropic", {
          blocks: [{ type: "text", text: "Streaming to every client, and then a long silence." }],
        });
        provider.setHandler(() => ({
          fault: "stall",
          response: streamed,
          afterBytes: endOfTextDelta(streamed, 3),
        }));
        events.length = 0;
        await watcher.run("a question from the editor");
        await screen.waitFor("a question from the editor");
        await screen.waitFor("Streaming to every");
        screen.press("Escape");
        await until(() => seen("run_end"));
        expect(events.find((e) => e.event === "run_end")).toMatchObject({ result: { status: "cancelled" } });
        await screen.waitFor("Cancelled");

        // This client's own run, cancelled with Esc: the served Pod ends it (the watcher sees it).
        const stalled = held(answer("never sent"));
        provider.setHandler(() => stalled.reply);
        events.length = 0;
        screen.type("a question to cancel");
        await screen.waitFor(inputLine("a question to cancel"));
        screen.press("Enter");
        await until(() => seen("turn_start"));
        screen.press("Escape");
        await until(() => seen("run_end"));
        expect(events.find((e) => e.event === "run_end")).toMatchObject({ result: { status: "cancelled" } });
        stalled.release();
        screen.press("C-d");
        shown = await screen.waitFor("[exit 0]");
        expect(shown).toContain("Left the served Pod; it goes on");
      } finally {
        screen.stop();
      }
    },
    90_000,
  );
});

describe("yoake serve and project trust", () => {
  it("a manifest the user has not trusted stops the server, as it stops -p", async () => {
    const provider = await startMockProvider();
    const project = await tempProject();
    const runtimeDir = await mkdtemp(path.join(tmpdir(), "yr-"));
    try {
      await writeFile(
        path.join(project.dir, ".yoake/manifest.toml"),
        '[[hooks]]\nevent = "prompt_submit"\ncommand = "true"\n',
      );
      const env = { ...testEnv(project, provider), XDG_RUNTIME_DIR: runtimeDir };
      const server = start(["serve"], project.dir, env);
      expect(await server.exited).toBe(2);
      expect(server.stderr).toMatch(
        /^yoake: .*manifest\.toml is not trusted: it asks for hooks; rerun with --trust-project to trust it\n$/,
      );
      expect(server.stdout).toBe("");
    } finally {
      await provider.close();
      await project.remove();
      await rm(runtimeDir, { recursive: true, force: true });
    }
  }, 60_000);
});
