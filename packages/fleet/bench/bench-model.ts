import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { type PostgresCluster, startPostgres } from "../test/support/postgres-cluster.js";

/** Rounds of tool calls per benchmark run, and calls per round. */
export const ROUNDS = 5;
export const CALLS = 3;

/**
 * The benchmarks' model: `ROUNDS` rounds of `CALLS` `write_file` calls, then "done"; usage on every
 * response, so runs are priced as real ones are.
 */
export function scriptBenchModel(provider: MockProvider): void {
  let ids = 0;
  provider.setHandler((request) => {
    const body = request.body as { messages: Array<{ role: string; content: unknown }> };
    const rounds = body.messages.filter(
      (m) =>
        Array.isArray(m.content) &&
        (m.content as Array<{ type: string }>).some((b) => b.type === "tool_result"),
    ).length;
    const usage = { inputTokens: 2000, outputTokens: 150 };
    if (rounds >= ROUNDS) return { blocks: [{ type: "text", text: "done" }], usage };
    return {
      blocks: Array.from({ length: CALLS }, (_, i) => {
        ids += 1;
        return {
          type: "tool_call" as const,
          id: `toolu_${ids}`,
          name: "write_file",
          arguments: { path: `out/r${rounds}-c${i}.txt`, content: `round ${rounds} call ${i}\n` },
        };
      }),
      usage,
    };
  });
}

/** What both benchmarks run against: a PostgreSQL cluster, the bench model, a bare repository. */
export interface BenchBed {
  cluster: PostgresCluster;
  provider: MockProvider;
  scratch: string;
  /** A bare repository with one README on `main`. */
  origin: string;
  env: Record<string, string | undefined>;
  git(cwd: string, ...args: string[]): void;
  close(): Promise<void>;
}

export async function startBenchBed(): Promise<BenchBed> {
  const cluster = await startPostgres();
  const provider = await startMockProvider();
  scriptBenchModel(provider);
  const scratch = await mkdtemp(path.join(tmpdir(), "yoake-fleet-bench-"));
  const origin = path.join(scratch, "origin.git");
  const seed = path.join(scratch, "seed");
  const git = (cwd: string, ...args: string[]) => {
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd, stdio: "pipe" });
  };
  git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
  git(scratch, "clone", "--quiet", `file://${origin}`, seed);
  execFileSync("sh", ["-c", "echo '# bench' > README.md"], { cwd: seed });
  git(seed, "add", ".");
  git(seed, "commit", "--quiet", "-m", "seed");
  git(seed, "push", "--quiet", "origin", "HEAD:main");
  return {
    cluster,
    provider,
    scratch,
    origin,
    env: {
      ...process.env,
      HOME: path.join(scratch, "home"),
      XDG_CONFIG_HOME: path.join(scratch, "home", "config"),
      XDG_STATE_HOME: path.join(scratch, "home", "state"),
      ANTHROPIC_API_KEY: "bench-key",
      ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
    },
    git,
    async close() {
      await provider.close();
      await cluster.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
