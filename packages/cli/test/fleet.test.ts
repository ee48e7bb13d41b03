import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FleetClient, openFleetStores, type RunRecord } from "@yoake/fleet";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgres } from "../../fleet/test/support/postgres-cluster.js";
import { runYoake, userTexts } from "./cli-test-kit.js";

const BIN = fileURLToPath(new URL("../bin/yoake.js", import.meta.url));

let cluster: PostgresCluster;
let provider: MockProvider;
let scratch: string;
let origin: string;
let url: string;
let env: Record<string, string | undefined>;
let client: FleetClient;
const workers: ChildProcess[] = [];
/** Prompts whose first request the provider leaves hanging (the worker gets killed meanwhile). */
const stallOnce = new Set<string>();
let toolCalls = 0;

beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase("fleet");
  provider = await startMockProvider();
  // A model that writes the file its prompt names ("create <name>"), then says so.
  provider.setHandler((request) => {
    const body = request.body as { messages: Array<{ role: string; content: unknown }> };
    const prompt = userTexts(body)[0] ?? "";
    if (stallOnce.delete(prompt)) return { fault: "stall" };
    const last = body.messages[body.messages.length - 1];
    const answered =
      Array.isArray(last?.content) &&
      (last.content as Array<{ type: string }>).some((b) => b.type === "tool_result");
    const name = /create (\S+)/.exec(prompt)?.[1] ?? "unnamed.txt";
    if (answered) return { blocks: [{ type: "text", text: `wrote ${name}` }] };
    toolCalls += 1;
    return {
      blocks: [
        {
          type: "tool_call",
          id: `toolu_${toolCalls}`,
          name: "write_file",
          arguments: { path: name, content: `made for ${name}\n` },
        },
      ],
    };
  });
  scratch = await mkdtemp(path.join(tmpdir(), "yoake-fleet-"));
  origin = path.join(scratch, "origin.git");
  const seed = path.join(scratch, "seed");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd,
      stdio: "pipe",
    }).toString();
  git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
  git(scratch, "clone", "--quiet", `file://${origin}`, seed);
  execFileSync("sh", ["-c", "echo '# project' > README.md"], { cwd: seed });
  git(seed, "add", ".");
  git(seed, "commit", "--quiet", "-m", "seed");
  git(seed, "push", "--quiet", "origin", "HEAD:main");
  env = {
    PATH: process.env.PATH,
    HOME: path.join(scratch, "home"),
    XDG_CONFIG_HOME: path.join(scratch, "home", "config"),
    // One session key for the whole fleet: every worker verifies what the others wrote.
    XDG_STATE_HOME: path.join(scratch, "home", "state"),
    ANTHROPIC_API_KEY: "test-anthropic-key",
    ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
  };
  client = await FleetClient.connect(url);
  for (let i = 0; i < 3; i += 1) startWorker();
}, 120_000);

afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await client?.close();
  await provider?.close();
  await cluster?.stop();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, [BIN, "worker", "--db", url, "--concurrency", "2", "--lease", "3"], {
    env,
    stdio: ["ignore", "ignore", "ignore"],
  });
  workers.push(child);
  return child;
}

async function waitForRun(id: string, done: (run: RunRecord) => boolean): Promise<RunRecord> {
  for (;;) {
    const run = await client.runs.get(id);
    if (run !== undefined && done(run)) return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ended = (run: RunRecord) => ["finished", "failed", "cancelled"].includes(run.state);

function branchFile(branch: string, file: string): string {
  return execFileSync("git", ["show", `${branch}:${file}`], { cwd: origin, stdio: "pipe" }).toString();
}

describe("runs on a queue, executed by worker processes", () => {
  it("runs many runs on three workers, pushes each run's branch and stores its verified log", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1)
      ids.push(
        await client.submit({
          repo: `file://${origin}`,
          prompt: `create file-${i}.txt`,
          overrides: { tools: { approve: [] } },
        }),
      );
    const { sessionStore, close } = await openFleetStores(url, { env });
    try {
      for (const [i, id] of ids.entries()) {
        const run = await waitForRun(id, ended);
        expect(run.result).toMatchObject({
          status: "finished",
          answer: `wrote file-${i}.txt`,
          branch: `yoake/${id}`,
        });
        expect(branchFile(`yoake/${id}`, `file-${i}.txt`)).toBe(`made for file-${i}.txt\n`);
        expect(branchFile(`yoake/${id}`, "README.md")).toBe("# project\n");
        const entries = await sessionStore.read(run.sessionId as string);
        expect(entries.map((entry) => entry.type)).toEqual(
          expect.arrayContaining(["session_start", "user_input", "run_start", "item", "run_end"]),
        );
      }
    } finally {
      await close();
    }
    // Several workers took part.
    const byWorker = new Set((await client.runs.list()).map((run) => run.worker));
    expect(byWorker.size).toBeGreaterThan(1);
  }, 180_000);

  it("submit --follow prints the stored log as JSON lines, and runs lists the run", async () => {
    const out = await runYoake(
      ["submit", "--db", url, "--repo", `file://${origin}`, "--yes", "--follow", "create followed.txt"],
      { cwd: scratch, env },
    );
    expect(out.stderr).toBe("");
    expect(out.exitCode).toBe(0);
    const [id, ...lines] = out.stdout.trimEnd().split("\n");
    const events = lines.map(
      (line) => JSON.parse(line) as { event: string; state?: string; branch?: string },
    );
    expect(events[0]?.event).toBe("session_start");
    expect(events.map((event) => event.event)).toContain("run_end");
    expect(events[events.length - 1]).toMatchObject({
      event: "run",
      state: "finished",
      branch: `yoake/${id}`,
    });

    const listed = await runYoake(["runs", "--db", url], { cwd: scratch, env });
    expect(listed.stdout).toMatch(new RegExp(`^${id}  finished .* yoake/${id}$`, "m"));
  }, 120_000);

  it("pauses a run for approval, frees the worker, and resumes it on approve", async () => {
    const id = await client.submit({ repo: `file://${origin}`, prompt: "create approved.txt" });
    const paused = await waitForRun(id, (run) => run.state === "paused" || ended(run));
    expect(paused.state).toBe("paused");
    expect(paused.permission?.tool).toBe("write_file");
    expect(paused.worker).toBeUndefined();
    const answer = await runYoake(
      ["approve", id.slice(0, 20), paused.permission?.callId as string, "allow", "--db", url],
      {
        cwd: scratch,
        env,
      },
    );
    expect(answer.stderr).toBe("");
    expect(answer.exitCode).toBe(0);
    const run = await waitForRun(id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(branchFile(`yoake/${id}`, "approved.txt")).toBe("made for approved.txt\n");

    const wrong = await runYoake(["approve", id, "toolu_nope", "deny", "--db", url], { cwd: scratch, env });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/is finished, not waiting for an approval/);
  }, 120_000);

  it("finishes a run whose worker was SIGKILLed mid-run on another worker, from the stored session", async () => {
    stallOnce.add("create survivor.txt");
    const id = await client.submit({
      repo: `file://${origin}`,
      prompt: "create survivor.txt",
      timeoutSeconds: 5,
      overrides: { tools: { approve: [] } },
    });
    const running = await waitForRun(id, (run) => run.state === "running" && run.sessionId !== undefined);
    // Wait until its first request is in flight (stalled at the provider), then kill that worker.
    for (;;) {
      if (provider.requests.some((request) => userTexts(request.body)[0] === "create survivor.txt")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pid = Number(running.worker?.split(":").pop());
    const victim = workers.find((worker) => worker.pid === pid);
    expect(victim).toBeDefined();
    victim?.kill("SIGKILL");
    const run = await waitForRun(id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(run.attempts).toBeGreaterThan(1);
    expect(branchFile(`yoake/${id}`, "survivor.txt")).toBe("made for survivor.txt\n");
    const { sessionStore, close } = await openFleetStores(url, { env });
    try {
      const entries = await sessionStore.read(run.sessionId as string);
      // One session, one prompt, continued: the restored run went on where the log stopped, and
      // the one tool call ran once.
      const types = entries.map((entry) => entry.type);
      expect(types.filter((type) => type === "user_input")).toHaveLength(1);
      expect(types.indexOf("resumed")).toBeGreaterThan(types.indexOf("run_start"));
      const results = entries.filter((entry) => entry.type === "item" && entry.item.type === "tool_result");
      expect(results).toHaveLength(1);
    } finally {
      await close();
    }
  }, 120_000);
});
