/**
 * The fleet's commands as a user meets them, on a real PostgreSQL cluster and worker processes: a
 * run that pauses is said to be paused (and what its call would change), `approve` says what it
 * did, `follow` picks the run up again, a repository that cannot be cloned says why, and a worker
 * stopped by SIGTERM says so in its log.
 */
import type { ChildProcess } from "node:child_process";
import type { FleetClient } from "@yoake/fleet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runYoake, runYoakeBinary } from "./cli-test-kit.js";
import { type FleetBed, startFleetBed } from "./support/fleet-bed.js";

let bed: FleetBed;
let url: string;
let client: FleetClient;
let worker: ChildProcess;

beforeAll(async () => {
  bed = await startFleetBed();
  ({ url, client } = await bed.database("fleet_cli"));
  worker = bed.startWorker(url, "--lease", "3");
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

const yoake = (...args: string[]) => runYoake([...args, "--db", url], { cwd: bed.scratch, env: bed.env });
const lastLine = (text: string) => JSON.parse(text.trimEnd().split("\n").at(-1) as string);

describe("yoake submit, runs, approve and follow", () => {
  it("a run that pauses: said on stderr with what its call would change, then approved and followed to its end", async () => {
    const submitted = await yoake(
      "submit",
      "--repo",
      `file://${bed.origin}`,
      "--follow",
      "create paused.txt",
    );
    const id = submitted.stdout.split("\n")[0] as string;
    expect(submitted.exitCode).toBe(1);
    const paused = lastLine(submitted.stdout);
    expect(paused).toMatchObject({ event: "result", status: "paused", isError: true, turns: 1 });
    expect(paused.usage).toMatchObject({ inputTokens: 1000, outputTokens: 100 });
    const run = await client.run(id);
    const callId = run.permission?.callId as string;
    expect(submitted.stderr).toBe(
      `yoake: run ${id} paused: write_file call ${callId} (paused.txt (+1 -0)) waits for approval; yoake approve ${id} ${callId} allow|deny, then yoake follow ${id}\n`,
    );

    const listed = await yoake("runs");
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout.split("\n").find((line) => line.startsWith(id))).toContain(
      `waits on write_file call ${callId} (paused.txt (+1 -0))`,
    );

    const approved = await yoake("approve", id.slice(0, 20), callId, "allow");
    expect(approved).toMatchObject({ exitCode: 0, stderr: "" });
    expect(approved.stdout).toBe(
      `allowed write_file call ${callId} (paused.txt (+1 -0)) of run ${id}: the run is queued again (yoake follow ${id})\n`,
    );

    const followed = await yoake("follow", id.slice(0, 20));
    expect(followed.exitCode, followed.stderr).toBe(0);
    expect(lastLine(followed.stdout)).toMatchObject({ status: "finished", text: "wrote paused.txt" });
    expect(bed.branchFile(`yoake/${id}`, "paused.txt")).toBe("made for paused.txt\n");
  }, 120_000);

  it("a repository that cannot be cloned: the run fails with git's reason", async () => {
    const missing = `file://${bed.scratch}/no-such-repo.git`;
    const out = await yoake("submit", "--repo", missing, "--yes", "--follow", "create x.txt");
    expect(out.exitCode).toBe(1);
    const result = lastLine(out.stdout);
    expect(result.status).toBe("failed");
    expect(result.error.message).toMatch(/cannot clone file:\/\/.*no-such-repo\.git: fatal: \S/);
  }, 120_000);
});

describe("yoake worker", () => {
  it("stopped by SIGTERM, says so in its log", async () => {
    let seen = "";
    const outcome = runYoakeBinary(["worker", "--db", url], {
      cwd: bed.scratch,
      env: bed.env,
      started: (child) => {
        child.stderr?.on("data", (chunk) => {
          seen += String(chunk);
          if (/takes runs/.test(seen) && !child.killed) child.kill("SIGTERM");
        });
      },
    });
    const { code, stderr } = await outcome;
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^yoake worker: \S+ stopping \(SIGTERM\)$/m);
    expect(stderr).toMatch(/^yoake worker: \S+ stopped$/m);
    expect(worker.exitCode).toBeNull();
  }, 60_000);
});
