import type { FleetClient, RunRecord } from "@yoake/fleet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ended, type FleetBed, startFleetBed, waitForRun, writeFileReply } from "./support/fleet-bed.js";

/**
 * Provider limits across the fleet: the per-provider concurrency limit holds between worker
 * processes, and a run refused with a 429 waits out the provider's `retry-after` in the queue
 * (a pg-boss job scheduled later), not in a worker.
 */
let bed: FleetBed;

beforeAll(async () => {
  bed = await startFleetBed();
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

const yes = { tools: { approve: [] } };

/** A provider's refusal for too many requests, with its retry headers. */
const tooMany = (headers: Record<string, string>) => ({
  fault: "status" as const,
  status: 429,
  code: "rate_limit_error",
  message: "Number of requests has exceeded your rate limit",
  headers,
});

describe("provider limits across the fleet", () => {
  it("runs at most --provider-limit runs per provider at once across worker processes", async () => {
    const { url, client } = await bed.database("limited");
    // A run is open at the provider from its first request to the request that answers its tool
    // call; with a limit of 1 no two runs' requests interleave.
    const open = new Set<string>();
    let mostOpen = 0;
    bed.onRequest = (prompt, answersToolCall) => {
      if (!prompt.startsWith("create limited-")) return;
      if (answersToolCall) open.delete(prompt);
      else open.add(prompt);
      mostOpen = Math.max(mostOpen, open.size);
    };
    try {
      for (let i = 0; i < 2; i += 1) bed.startWorker(url, "--concurrency", "2", "--provider-limit", "1");
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1)
        ids.push(
          await client.submit({
            repo: `file://${bed.origin}`,
            prompt: `create limited-${i}.txt`,
            overrides: yes,
          }),
        );
      const runs: RunRecord[] = [];
      for (const id of ids) runs.push(await waitForRun(client, id, ended));
      for (const run of runs) expect(run.result?.status).toBe("finished");
      expect(mostOpen).toBe(1);
      // Four runs on four worker slots, one provider slot: the others went back to the queue.
      expect(runs.some((run) => run.attempts > 1)).toBe(true);
    } finally {
      bed.onRequest = undefined;
    }
  }, 180_000);

  it("sends a run refused with a 429 back to the queue until the provider's retry-after, then finishes it", async () => {
    const { url, client } = await bed.database("rate_limited");
    const prompt = "create throttled.txt";
    // The client's own retries (two) take the first two quickly; the third refusal ends the
    // attempt and asks for 6 seconds.
    bed.replies.set(prompt, [
      tooMany({ "retry-after-ms": "20" }),
      tooMany({ "retry-after-ms": "20" }),
      tooMany({ "retry-after": "6" }),
    ]);
    const requestTimes: number[] = [];
    bed.onRequest = (requestPrompt) => {
      if (requestPrompt === prompt) requestTimes.push(Date.now());
    };
    bed.startWorker(url, "--concurrency", "1");
    try {
      const id = await client.submit({ repo: `file://${bed.origin}`, prompt, overrides: yes });
      // Refused: back in the queue, held by no worker, its job scheduled for the provider's time.
      const waiting = await waitForRun(
        client,
        id,
        (run) => (run.state === "queued" && run.attempts === 1) || ended(run),
      );
      expect(waiting.state).toBe("queued");
      expect(waiting.worker).toBeUndefined();
      const job = await scheduledJob(client, id);
      expect(job.state).toBe("created");
      // Scheduled from when the refusal came, not the 10 s the worker used to pick.
      expect(job.delayMs).toBeGreaterThanOrEqual(1000);
      expect(job.delayMs).toBeLessThanOrEqual(6000);

      const run = await waitForRun(client, id, ended);
      expect(run.result).toMatchObject({
        status: "finished",
        answer: "wrote throttled.txt",
        branch: `yoake/${id}`,
      });
      expect(run.attempts).toBe(2);
      expect(bed.branchFile(`yoake/${id}`, "throttled.txt")).toBe("made for throttled.txt\n");
      // The fourth request (the second attempt's first) came no earlier than the job's start.
      expect(requestTimes.length).toBe(5);
      expect(requestTimes[3] as number).toBeGreaterThanOrEqual(job.startAfter - 1000);
    } finally {
      bed.onRequest = undefined;
    }
  }, 180_000);

  it("continues a run sent back by a 429 from its working tree as it was, with what it wrote before", async () => {
    const { url, client } = await bed.database("rate_limited_tree");
    const prompt = "create after-limit.txt";
    bed.replies.set(prompt, [
      writeFileReply("toolu_before_limit", "before-limit.txt", "written before the limit\n"),
      tooMany({ "retry-after-ms": "20" }),
      tooMany({ "retry-after-ms": "20" }),
      tooMany({ "retry-after": "1" }),
    ]);
    bed.startWorker(url, "--concurrency", "1");
    const id = await client.submit({ repo: `file://${bed.origin}`, prompt, overrides: yes });
    const waiting = await waitForRun(
      client,
      id,
      (run) => (run.state === "queued" && run.attempts === 1) || ended(run),
    );
    expect(waiting.workspace?.patch).toContain("+written before the limit");
    const run = await waitForRun(client, id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(run.attempts).toBe(2);
    expect(bed.branchFile(`yoake/${id}`, "before-limit.txt")).toBe("written before the limit\n");
    expect(run.workspace).toBeUndefined();
  }, 180_000);
});

/** The run's pg-boss job waiting to start: its state, when it may start, and how far off that was. */
async function scheduledJob(
  client: FleetClient,
  runId: string,
): Promise<{ state: string; startAfter: number; delayMs: number }> {
  const { rows } = await client.database.pool.query<{ state: string; start_after: Date; created_on: Date }>(
    `SELECT state, start_after, created_on FROM pgboss.job
      WHERE data->>'runId' = $1 AND state = 'created' ORDER BY created_on DESC LIMIT 1`,
    [runId],
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`no job waiting for run ${runId}`);
  return {
    state: row.state,
    startAfter: row.start_after.getTime(),
    delayMs: row.start_after.getTime() - row.created_on.getTime(),
  };
}
