import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FleetClient, type RunRecord, startFleetWorker } from "../src/index.js";
import { type PostgresCluster, startPostgres } from "./support/postgres-cluster.js";

let cluster: PostgresCluster;
let provider: MockProvider;
let scratch: string;

beforeAll(async () => {
  cluster = await startPostgres();
  provider = await startMockProvider();
  scratch = await mkdtemp(path.join(tmpdir(), "yoake-fleet-delivery-"));
}, 60_000);
afterAll(async () => {
  await provider?.close();
  await cluster?.stop();
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a fleet worker's lane", () => {
  it("starts its next run while the previous run's branch is still being pushed, and stores that result after the push", async () => {
    // The origin's pre-receive hook holds every push until the test lets it go.
    const origin = path.join(scratch, "origin.git");
    const seed = path.join(scratch, "seed");
    const pushing = path.join(scratch, "pushing");
    const release = path.join(scratch, "release");
    git(scratch, "init", "--quiet", "--bare", "--initial-branch=main", origin);
    git(scratch, "clone", "--quiet", `file://${origin}`, seed);
    await writeFile(path.join(seed, "README.md"), "# project\n");
    git(seed, "add", ".");
    git(seed, "commit", "--quiet", "-m", "seed");
    git(seed, "push", "--quiet", "origin", "HEAD:main");
    const hook = path.join(origin, "hooks", "pre-receive");
    await writeFile(
      hook,
      `#!/bin/sh\ntouch '${pushing}'\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\n`,
    );
    await chmod(hook, 0o755);

    const prompts: string[] = [];
    provider.setHandler((request) => {
      const body = request.body as { messages: Array<{ role: string; content: unknown }> };
      const first = body.messages[0]?.content;
      const prompt = typeof first === "string" ? first : JSON.stringify(first);
      prompts.push(prompt);
      const name = /create (\S+?\.txt)/.exec(prompt)?.[1] ?? "x.txt";
      const answered = body.messages.some((m) => JSON.stringify(m.content).includes("tool_result"));
      return answered
        ? { blocks: [{ type: "text", text: `wrote ${name}` }] }
        : {
            blocks: [
              {
                type: "tool_call",
                id: `toolu_${name}`,
                name: "write_file",
                arguments: { path: name, content: "x\n" },
              },
            ],
          };
    });

    const url = await cluster.createDatabase("delivery");
    const home = path.join(scratch, "home");
    const worker = await startFleetWorker({
      url,
      concurrency: 1,
      repositoryCache: path.join(scratch, "repos"),
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, "config"),
        XDG_STATE_HOME: path.join(home, "state"),
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: provider.baseURLFor("anthropic"),
      },
    });
    const client = await FleetClient.connect(url);
    try {
      const spec = (name: string) => ({
        repo: `file://${origin}`,
        prompt: `create ${name}`,
        overrides: { tools: { approve: [] } },
      });
      const first = await client.submit(spec("first.txt"));
      await until("the first run's push", () => existsSync(pushing));
      const second = await client.submit(spec("second.txt"));
      // One lane, the first run's push held: the second run's Pod runs meanwhile.
      await until("the second run's Pod", () =>
        prompts.some((prompt) => prompt.includes("create second.txt")),
      );
      const held = (await client.runs.get(first)) as RunRecord;
      expect(held.state).toBe("running");
      expect(held.result).toBeUndefined();

      await writeFile(release, "");
      const done = async (id: string) =>
        until(`run ${id}`, async () => {
          const run = await client.runs.get(id);
          return run?.state === "finished" || run?.state === "failed" ? run : undefined;
        });
      for (const [id, name] of [
        [first, "first.txt"],
        [second, "second.txt"],
      ] as const) {
        const run = await done(id);
        expect(run.result).toMatchObject({
          status: "finished",
          answer: `wrote ${name}`,
          branch: `yoake/${id}`,
        });
        expect(git(origin, "show", `yoake/${id}:${name}`)).toBe("x\n");
      }
    } finally {
      await writeFile(release, "");
      await client.close();
      await worker.stop();
    }
  }, 120_000);
});
