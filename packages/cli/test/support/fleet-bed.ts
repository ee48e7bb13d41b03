import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { openSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FleetClient, type RunRecord } from "@yoake/fleet";
import { type MockProvider, type MockReply, startMockProvider } from "@yoake/llm-worker/testing";
import { type PostgresCluster, startPostgres } from "../../../fleet/test/support/postgres-cluster.js";
import { userTexts } from "../cli-test-kit.js";

const BIN = fileURLToPath(new URL("../../bin/yoake.js", import.meta.url));

/** Usage the mock reports for every response, so runs have a cost. */
export const TURN_USAGE = { inputTokens: 1000, outputTokens: 100 };

/** The model's reply that writes `content` to `path` (one `write_file` call with id `callId`). */
export function writeFileReply(callId: string, path: string, content = `made for ${path}\n`) {
  return {
    blocks: [{ type: "tool_call" as const, id: callId, name: "write_file", arguments: { path, content } }],
    usage: TURN_USAGE,
  };
}

/**
 * A fleet for tests: its own PostgreSQL cluster, a bare repository (`origin`, one README on
 * `main`) and the mock provider playing a model that writes the file its prompt names ("create
 * <name>"), then says `wrote <name>`. `replies` scripts the first replies to a prompt (faults, stalls);
 * `onRequest` sees every request with its prompt and whether it answers a tool call.
 */
export interface FleetBed {
  cluster: PostgresCluster;
  provider: MockProvider;
  scratch: string;
  origin: string;
  env: Record<string, string | undefined>;
  /** Replies to a prompt's next requests, in order, before the model above takes over. */
  replies: Map<string, MockReply[]>;
  onRequest: ((prompt: string, answersToolCall: boolean) => void) | undefined;
  /** How long the model takes to answer each request (default 0), so runs are in flight for a while. */
  latencyMs: number;
  /** A new database on the cluster, and a client of it. */
  database(name: string): Promise<{ url: string; client: FleetClient }>;
  /** `yoake worker --db url ...args` as a child process. */
  startWorker(url: string, ...args: string[]): ChildProcess;
  /** The worker process whose id (`host:pid`) is `worker`. */
  workerProcess(worker: string | undefined): ChildProcess | undefined;
  /** Stops a worker with SIGTERM and waits for it to exit. */
  stopWorker(child: ChildProcess): Promise<void>;
  /** The content of `file` on `branch` of the origin repository. */
  branchFile(branch: string, file: string): string;
  close(): Promise<void>;
}

/**
 * `parent` (default the system's temporary directory) holds the bed's directory and the cluster's:
 * outside `/tmp`, which every sandbox replaces with its own, so what a run's commands could reach
 * there is really hidden from them.
 */
export async function startFleetBed(
  options: { parent?: string; durableCommits?: boolean } = {},
): Promise<FleetBed> {
  const cluster = await startPostgres(options);
  const provider = await startMockProvider();
  const clients: FleetClient[] = [];
  const workers: ChildProcess[] = [];
  let toolCalls = 0;
  const scratch = await mkdtemp(path.join(options.parent ?? tmpdir(), "yoake-fleet-"));
  const origin = path.join(scratch, "origin.git");
  const bed: FleetBed = {
    cluster,
    provider,
    scratch,
    origin,
    env: {
      PATH: process.env.PATH,
      HOME: path.join(scratch, "home"),
      XDG_CONFIG_HOME: path.join(scratch, "home", "config"),
      // One session key for the whole fleet: every worker verifies what the others wrote.
      XDG_STATE_HOME: path.join(scratch, "home", "state"),
      ANTHROPIC_API_KEY: "test-anthropic-key",
      ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
    },
    replies: new Map(),
    onRequest: undefined,
    latencyMs: 0,
    async database(name) {
      const url = await cluster.createDatabase(name);
      const client = await FleetClient.connect(url);
      clients.push(client);
      return { url, client };
    },
    startWorker(url, ...args) {
      // YOAKE_TEST_WORKER_LOG=<file>: the workers' logs, for a failing test's reader.
      const logFile = process.env.YOAKE_TEST_WORKER_LOG;
      const child = spawn(process.execPath, [BIN, "worker", "--db", url, ...args], {
        env: bed.env,
        stdio: ["ignore", "ignore", logFile === undefined ? "ignore" : openSync(logFile, "a")],
      });
      workers.push(child);
      return child;
    },
    workerProcess: (worker) => workers.find((child) => child.pid === Number(worker?.split(":").pop())),
    async stopWorker(child) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
    branchFile: (branch, file) =>
      execFileSync("git", ["show", `${branch}:${file}`], { cwd: origin, stdio: "pipe" }).toString(),
    async close() {
      for (const worker of workers) worker.kill("SIGKILL");
      for (const client of clients) await client.close();
      await provider.close();
      await cluster.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
  provider.setHandler(async (request) => {
    if (bed.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, bed.latencyMs));
    const body = request.body as { messages: Array<{ role: string; content: unknown }> };
    const prompt = userTexts(body)[0] ?? "";
    const last = body.messages[body.messages.length - 1];
    const answered =
      Array.isArray(last?.content) &&
      (last.content as Array<{ type: string }>).some((b) => b.type === "tool_result");
    bed.onRequest?.(prompt, answered);
    const scripted = bed.replies.get(prompt)?.shift();
    if (scripted !== undefined) return scripted;
    const name = /create (\S+)/.exec(prompt)?.[1] ?? "unnamed.txt";
    if (answered) return { blocks: [{ type: "text", text: `wrote ${name}` }], usage: TURN_USAGE };
    toolCalls += 1;
    return writeFileReply(`toolu_${toolCalls}`, name);
  });
  const seed = path.join(scratch, "seed");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" });
  git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
  git(scratch, "clone", "--quiet", `file://${origin}`, seed);
  execFileSync("sh", ["-c", "echo '# project' > README.md"], { cwd: seed });
  git(seed, "add", ".");
  git(seed, "commit", "--quiet", "-m", "seed");
  git(seed, "push", "--quiet", "origin", "HEAD:main");
  return bed;
}

/** Polls the run until `done` holds. */
export async function waitForRun(
  client: FleetClient,
  id: string,
  done: (run: RunRecord) => boolean,
): Promise<RunRecord> {
  for (;;) {
    const run = await client.runs.get(id);
    if (run !== undefined && done(run)) return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const ended = (run: RunRecord): boolean => ["finished", "failed", "cancelled"].includes(run.state);
