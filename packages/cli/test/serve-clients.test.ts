/**
 * The clients of `yoake serve` and what each owes the others, as real processes on a real socket
 * against the mock provider: leaving (closing, Ctrl+D, `/quit`, an editor going away) never cancels
 * the served Pod's run, and a client that cancels another's run is named to it; the Pod's start
 * warnings reach the server's terminal and every client; an attached `yoake -p` whose call needs an
 * approval nobody attached can give fails at once, and waits while someone can.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { connectPod, type PodClient, type WireEvent } from "@yoake/pod/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initialize, killEditors, startEditor } from "./acp-editor.js";
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

/** The warning a Pod whose user turned the sandbox off starts with. */
const NO_SANDBOX = "no sandbox for commands: the manifest turned it off";
const NOBODY_TO_APPROVE =
  "yoake: write_file needs approval and no client of the served Pod can give it: open yoake in this project to answer it (the request waits there), or rerun with --yes\n";

describe("the clients of yoake serve", () => {
  let provider: MockProvider;
  let project: TempProject;
  let runtimeDir: string;
  let env: Record<string, string | undefined>;
  let server: Child;
  let socketPath: string;
  /** A protocol client in this process that cannot answer approvals (a script). */
  let watcher: PodClient;
  let events: WireEvent[];
  const children: Child[] = [];

  const yoake = (...args: string[]): Child => {
    const child = start(args, project.dir, env);
    children.push(child);
    return child;
  };
  const runEnds = () => events.filter((e): e is WireEvent & { event: "run_end" } => e.event === "run_end");

  beforeEach(async () => {
    provider = await startMockProvider();
    project = await tempProject();
    runtimeDir = await mkdtemp(path.join(tmpdir(), "yr-"));
    env = { ...testEnv(project, provider), XDG_RUNTIME_DIR: runtimeDir };
    // The user's own manifest (no trust asked): a Pod that starts with a warning.
    await mkdir(path.join(project.home, "config", "yoake"), { recursive: true });
    await writeFile(
      path.join(project.home, "config", "yoake", "manifest.toml"),
      "[shell]\nsandbox = false\n",
    );
    ({ server, socketPath } = await startServer(project.dir, env));
    watcher = await connectPod(socketPath, { clientName: "watcher" });
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

  it("the server's terminal and every attached client show the Pod's start warnings", async () => {
    expect(server.stderr).toContain(`yoake: warning: ${NO_SANDBOX}`);
    expect(watcher.hello.warnings).toEqual([expect.stringContaining(NO_SANDBOX)]);

    provider.enqueue(answer("hello"));
    const headless = yoake("-p", "hi");
    expect(await headless.exited).toBe(0);
    expect(headless.stderr).toContain(`yoake: warning: ${NO_SANDBOX}`);

    const editor = startEditor(project.dir, env);
    await initialize(editor);
    await editor.connection.agent.request("session/new", { cwd: project.dir, mcpServers: [] });
    expect(editor.stderr()).toContain(`yoake acp: warning: ${NO_SANDBOX}`);
    expect(await editor.close()).toBe(0);
  }, 60_000);

  it("an attached -p whose call nobody attached can approve fails at once, naming the call and the way out", async () => {
    // Each run asks to write, and gets no further.
    provider.enqueue(writeCall, writeCall);
    const headless = yoake("-p", "write out.txt");
    expect(await headless.exited).toBe(1);
    expect(headless.stderr.endsWith(NOBODY_TO_APPROVE)).toBe(true);
    expect(headless.stderr).not.toContain("waits for approval");
    // The request waits in the served Pod for whoever attaches next.
    expect((await watcher.status()).pendingPermission).toMatchObject({ tool: "write_file" });

    // A script reading JSON gets the same reason.
    const json = yoake("-p", "write out.txt", "--output-format", "json");
    expect(await json.exited).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "paused",
      isError: true,
      error: { kind: "needs_approval", message: NOBODY_TO_APPROVE.slice("yoake: ".length, -1) },
    });
    expect(json.stderr.endsWith(NOBODY_TO_APPROVE)).toBe(true);
  }, 60_000);

  it("an attached -p waits while a client that can approve is there, and gives up when the last one leaves", async () => {
    // The first run's call, its answer after the approval, and the second run's call.
    provider.enqueue(writeCall, answer("wrote it"), writeCall);
    const approver = await connectPod(socketPath, { clientName: "an editor", answersApprovals: true });
    const first = yoake("-p", "write out.txt");
    const request = await approver.next("permission_request");
    await until(() => first.stderr.includes("write_file waits for approval"));
    await approver.respond(request.id, "allow_once");
    expect(await first.exited).toBe(0);
    expect(first.stdout).toBe("wrote it\n");
    expect(await readFile(path.join(project.dir, "out.txt"), "utf8")).toBe("written\n");

    // The one who could answer leaves while -p waits: it stops waiting for nobody.
    const second = yoake("-p", "write out.txt again");
    await approver.next("permission_request");
    await until(() => second.stderr.includes("write_file waits for approval"));
    approver.close();
    expect(await second.exited).toBe(1);
    expect(second.stderr.endsWith(NOBODY_TO_APPROVE)).toBe(true);
  }, 60_000);

  it("a client that cancels an attached -p's run is named to it", async () => {
    const stalled = held(answer("never sent"));
    provider.setHandler(() => stalled.reply);
    const headless = yoake("-p", "a long task");
    await until(() => events.some((e) => e.event === "turn_start"));
    expect(await watcher.cancel()).toEqual({ cancelled: true });
    expect(await headless.exited).toBe(1);
    expect(headless.stderr).toContain(
      'yoake: cancelled by client "watcher": it asked the Pod to cancel the run\n',
    );
    stalled.release();
  }, 60_000);

  it("an editor going away mid-run leaves the run going", async () => {
    const slow = held(answer("finished without the editor"));
    provider.setHandler(() => slow.reply);
    const editor = startEditor(project.dir, env);
    await initialize(editor);
    const { sessionId } = await editor.connection.agent.request("session/new", {
      cwd: project.dir,
      mcpServers: [],
    });
    const prompt = editor.connection.agent
      .request("session/prompt", { sessionId, prompt: [{ type: "text", text: "a long task" }] })
      .catch(() => undefined);
    await until(() => events.some((e) => e.event === "turn_start"));
    expect(await editor.close()).toBe(0);
    await prompt;
    slow.release();
    await until(() => runEnds().length === 1);
    expect(runEnds()[0]?.result).toMatchObject({ status: "finished", text: "finished without the editor" });
  }, 60_000);

  it.skipIf(!hasTmux)(
    "yoake left with Ctrl+D or /quit mid-run leaves the run going; the next yoake shows the whole answer; a cancel by another client is named",
    async () => {
      const screen = new TmuxScreen("serve-leave");
      try {
        screen.start(yoakeInEnv(env), project.dir);
        let shown = await screen.waitFor("attached to the Pod yoake serve runs", 30_000);
        expect(shown).toContain(`warning: ${NO_SANDBOX}`);

        for (const leave of [() => screen.press("C-d"), () => screen.type("/quit\r")]) {
          const slow = held(answer(`the whole answer, ${runEnds().length + 1}`));
          provider.setHandler(() => slow.reply);
          const ends = runEnds().length;
          screen.type("a long task");
          await screen.waitFor(inputLine("a long task"));
          screen.press("Enter");
          await until(() => events.filter((e) => e.event === "turn_start").length > ends);
          leave();
          shown = await screen.waitFor("[exit 0]");
          expect(shown).toContain("Left the served Pod; its run goes on");
          slow.release();
          await until(() => runEnds().length > ends);
          expect(runEnds().at(-1)?.result).toMatchObject({
            status: "finished",
            text: `the whole answer, ${ends + 1}`,
          });
          screen.start(yoakeInEnv(env), project.dir);
          await screen.waitFor(`the whole answer, ${ends + 1}`, 30_000);
        }

        // Another client cancels this one's run: it says who.
        const stalled = held(answer("never sent"));
        provider.setHandler(() => stalled.reply);
        const ends = runEnds().length;
        screen.type("one more long task");
        await screen.waitFor(inputLine("one more long task"));
        screen.press("Enter");
        await until(() => events.filter((e) => e.event === "turn_start").length > ends);
        await watcher.cancel();
        await screen.waitFor('Cancelled by client "watcher"');
        stalled.release();

        // With this terminal attached, an attached -p waits for it, and its answer lets -p finish.
        provider.setHandler((request) =>
          toolResults(request.body).length === 0 ? writeCall : answer("wrote it"),
        );
        const headless = yoake("-p", "write out.txt");
        await screen.waitFor("Allow once");
        screen.type("y");
        expect(await headless.exited).toBe(0);
        expect(headless.stdout).toBe("wrote it\n");
        expect(headless.stderr).toContain("write_file waits for approval");
      } finally {
        screen.stop();
      }
    },
    120_000,
  );
});
