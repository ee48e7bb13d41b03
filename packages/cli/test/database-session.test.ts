import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PostgresCluster, startPostgres } from "../../fleet/test/support/postgres-cluster.js";
import { headlessFixture, runYoake, userTexts } from "./cli-test-kit.js";

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

const answer = (text: string) => ({ blocks: [{ type: "text" as const, text }] });

describe("sessions in PostgreSQL (--db, YOAKE_DATABASE_URL)", () => {
  it("keeps the session in the database and continues it from there, not from .yoake/", async () => {
    const url = await cluster.createDatabase("cli_continue");
    const f = await headlessFixture();
    try {
      f.provider.enqueue(answer("The answer is 4."));
      const first = await f.run(["-p", "what is 2 + 2?", "--db", url, "--output-format", "json"]);
      expect(first.stderr).toBe("");
      expect(first.exitCode).toBe(0);
      const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
      expect(existsSync(path.join(f.project.dir, ".yoake", "sessions"))).toBe(false);

      f.provider.enqueue(answer("6."));
      const env = { ...f.env, YOAKE_DATABASE_URL: url };
      const second = await runYoake(["-p", "and 3 + 3?", "--continue", "--output-format", "json"], {
        cwd: f.project.dir,
        env,
      });
      expect(second.exitCode).toBe(0);
      expect((JSON.parse(second.stdout) as { sessionId: string }).sessionId).toBe(sessionId);
      const last = f.provider.requests[f.provider.requests.length - 1];
      expect(userTexts(last?.body)).toEqual(["what is 2 + 2?", "and 3 + 3?"]);

      // Without the database, the project has no session to continue.
      const local = await f.run(["-p", "go on", "--continue"]);
      expect(local.exitCode).toBe(2);
      expect(local.stderr).toMatch(/no sessions yet/);

      f.provider.enqueue(answer("still here"));
      const resumed = await runYoake(["-p", "again", "--resume", sessionId.slice(0, 13)], {
        cwd: f.project.dir,
        env,
      });
      expect(resumed.exitCode).toBe(0);
    } finally {
      await f.close();
    }
  }, 60_000);

  it("says in one line, exit 2, when the database cannot be used", async () => {
    const f = await headlessFixture();
    try {
      const url = `postgres://someone:hunter2@127.0.0.1:${cluster.port}/no_such_database`;
      const out = await f.run(["-p", "hi", "--db", url]);
      expect(out.exitCode).toBe(2);
      expect(out.stderr).toMatch(
        /^yoake: cannot use the database postgres:\/\/someone:\*\*\*@127\.0\.0\.1:\d+\/no_such_database: .+\n$/,
      );
      expect(out.stderr).not.toContain("hunter2");
    } finally {
      await f.close();
    }
  }, 60_000);
});
