import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type FleetClient, openFleetStores, type RunRecord } from "@yoake/fleet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runYoake, userTexts } from "./cli-test-kit.js";
import { ended, type FleetBed, startFleetBed, waitForRun, writeFileReply } from "./support/fleet-bed.js";

let bed: FleetBed;
let url: string;
let client: FleetClient;
const workers: ChildProcess[] = [];

/** The default model (anthropic/claude-sonnet-5-5, $2 in and $10 out per million) for two turns. */
const RUN_COST = (2 * (1000 * 2 + 100 * 10)) / 1_000_000;

beforeAll(async () => {
  bed = await startFleetBed();
  ({ url, client } = await bed.database("fleet"));
  for (let i = 0; i < 3; i += 1)
    workers.push(bed.startWorker(url, "--concurrency", "2", "--lease", "3", "--job-expire", "5"));
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

const waitFor = (id: string, done: (run: RunRecord) => boolean) => waitForRun(client, id, done);

/** An event's shape: its name and its keys in order, what a script reading stream-json relies on. */
const shape = (event: Record<string, unknown>) => `${event.event}(${Object.keys(event).join(",")})`;
const lines = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("runs on a queue, executed by worker processes", () => {
  it("runs 30 runs on three workers, pushes each run's branch and stores its verified log and cost", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i += 1)
      ids.push(
        await client.submit({
          repo: `file://${bed.origin}`,
          prompt: `create file-${i}.txt`,
          overrides: { tools: { approve: [] } },
        }),
      );
    const { sessionStore, close } = await openFleetStores(url, { env: bed.env });
    try {
      for (const [i, id] of ids.entries()) {
        const run = await waitFor(id, ended);
        expect(run.result).toMatchObject({
          status: "finished",
          answer: `wrote file-${i}.txt`,
          branch: `yoake/${id}`,
          usage: { inputTokens: 2000, outputTokens: 200 },
          model: "anthropic/claude-sonnet-5-5",
          turns: 2,
        });
        expect(run.result?.costUsd).toBeCloseTo(RUN_COST, 10);
        expect(bed.branchFile(`yoake/${id}`, `file-${i}.txt`)).toBe(`made for file-${i}.txt\n`);
        expect(bed.branchFile(`yoake/${id}`, "README.md")).toBe("# project\n");
        // The log reads back verified (every line's MAC and the chain checked), one whole run.
        const entries = await sessionStore.read(run.sessionId as string);
        const types = entries.map((entry) => entry.type);
        expect(types.slice(0, 3)).toEqual(["session_start", "user_input", "run_start"]);
        expect(types.at(-1)).toBe("run_end");
        const results = entries.filter((entry) => entry.type === "item" && entry.item.type === "tool_result");
        expect(results).toHaveLength(1);
      }
    } finally {
      await close();
    }
    // Several workers took part.
    const byWorker = new Set((await client.runs.list()).map((run) => run.worker));
    expect(byWorker.size).toBeGreaterThan(1);
  }, 300_000);

  it("submit --follow prints the run's events as -p --output-format stream-json does, and runs lists it", async () => {
    const out = await runYoake(
      ["submit", "--db", url, "--repo", `file://${bed.origin}`, "--yes", "--follow", "create followed.txt"],
      { cwd: bed.scratch, env: bed.env },
    );
    expect(out.stderr).toBe("");
    expect(out.exitCode).toBe(0);
    const [id, ...rest] = out.stdout.trimEnd().split("\n");
    const followed = lines(rest.join("\n"));

    // The same prompt in a local headless run, in a clone of the same repository.
    const local = path.join(await mkdtemp(path.join(bed.scratch, "local-")), "repo");
    execFileSync("git", ["clone", "--quiet", `file://${bed.origin}`, local], { stdio: "pipe" });
    const headless = await runYoake(
      ["-p", "create followed.txt", "--output-format", "stream-json", "--yes"],
      {
        cwd: local,
        env: bed.env,
      },
    );
    expect(headless.exitCode).toBe(0);
    const streamed = lines(headless.stdout);
    expect(followed.map(shape)).toEqual(streamed.map(shape));
    expect(followed.at(-1)).toMatchObject({
      event: "result",
      status: "finished",
      isError: false,
      text: "wrote followed.txt",
      turns: 2,
      model: "anthropic/claude-sonnet-5-5",
    });
    expect(followed.at(-1)?.costUsd).toBeCloseTo(streamed.at(-1)?.costUsd as number, 10);
    expect(followed.at(-1)?.usage).toEqual(streamed.at(-1)?.usage);
    expect(
      followed
        .filter((event) => event.event === "text_delta")
        .map((event) => event.text)
        .join(""),
    ).toBe("wrote followed.txt");

    // A follower that comes after the run ended gets every event all the same.
    const late: Record<string, unknown>[] = [];
    await client.follow(id as string, (event) => late.push(event as unknown as Record<string, unknown>));
    expect(late).toEqual(followed.slice(0, -1));

    const listed = await runYoake(["runs", "--db", url], { cwd: bed.scratch, env: bed.env });
    expect(listed.stdout).toMatch(new RegExp(`^${id}  finished .* yoake/${id}$`, "m"));
  }, 120_000);

  it("keeps a --patch run's changes as a diff instead of a branch, and yoake patch prints it for git apply", async () => {
    const submitted = await runYoake(
      ["submit", "--db", url, "--repo", `file://${bed.origin}`, "--yes", "--patch", "create patched.txt"],
      { cwd: bed.scratch, env: bed.env },
    );
    expect(submitted.exitCode).toBe(0);
    const id = submitted.stdout.trim();
    const run = await waitFor(id, ended);
    expect(run.result).toMatchObject({ status: "finished", answer: "wrote patched.txt" });
    expect(run.result?.branch).toBeUndefined();
    expect(
      execFileSync("git", ["branch", "--list", `yoake/${id}`], { cwd: bed.origin, encoding: "utf8" }),
    ).toBe("");
    const printed = await runYoake(["patch", id.slice(0, 12), "--db", url], {
      cwd: bed.scratch,
      env: bed.env,
    });
    expect(printed.exitCode).toBe(0);
    expect(printed.stdout).toBe(run.result?.patch);
    const listed = await runYoake(["runs", "--db", url], { cwd: bed.scratch, env: bed.env });
    expect(listed.stdout).toMatch(new RegExp(`^${id}  finished .* a patch: yoake patch <run>$`, "m"));
    const clone = path.join(await mkdtemp(path.join(bed.scratch, "apply-")), "repo");
    execFileSync("git", ["clone", "--quiet", `file://${bed.origin}`, clone], { stdio: "pipe" });
    execFileSync("git", ["apply"], { cwd: clone, input: printed.stdout });
    expect(await readFile(path.join(clone, "patched.txt"), "utf8")).toBe("made for patched.txt\n");

    // A run that pushed a branch has no patch to print.
    const branchRun = await client.submit({
      repo: `file://${bed.origin}`,
      prompt: "create branched.txt",
      overrides: { tools: { approve: [] } },
    });
    expect((await waitFor(branchRun, ended)).result?.branch).toBe(`yoake/${branchRun}`);
    const none = await runYoake(["patch", branchRun, "--db", url], {
      cwd: bed.scratch,
      env: bed.env,
    });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/kept no patch \(submitted without --patch/);
  }, 120_000);

  it("pauses a run for approval, frees the worker, and resumes it on another worker on approve", async () => {
    const id = await client.submit({ repo: `file://${bed.origin}`, prompt: "create approved.txt" });
    const paused = await waitFor(id, (run) => run.state === "paused" || ended(run));
    expect(paused.state).toBe("paused");
    expect(paused.permission?.tool).toBe("write_file");
    expect(paused.worker).toBeUndefined();
    const pausedBy = paused.workers.at(-1);
    // The worker that paused it goes away: whichever worker resumes the run reads it from the store.
    const pauser = bed.workerProcess(pausedBy);
    expect(pauser).toBeDefined();
    await bed.stopWorker(pauser as ChildProcess);
    workers.push(bed.startWorker(url, "--concurrency", "2", "--lease", "3"));
    const answer = await runYoake(
      ["approve", id.slice(0, 20), paused.permission?.callId as string, "allow", "--db", url],
      { cwd: bed.scratch, env: bed.env },
    );
    expect(answer.stderr).toBe("");
    expect(answer.exitCode).toBe(0);
    const run = await waitFor(id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(run.workers).toHaveLength(2);
    expect(run.workers[0]).toBe(pausedBy);
    expect(run.workers[1]).not.toBe(pausedBy);
    expect(run.worker).toBe(run.workers[1]);
    expect(bed.branchFile(`yoake/${id}`, "approved.txt")).toBe("made for approved.txt\n");
    // Both attempts' requests were priced: two turns in all.
    expect(run.result?.costUsd).toBeCloseTo(RUN_COST, 10);

    const wrong = await runYoake(["approve", id, "toolu_nope", "deny", "--db", url], {
      cwd: bed.scratch,
      env: bed.env,
    });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toMatch(/is finished, not waiting for an approval/);
  }, 120_000);

  it("continues a paused run from its working tree as it was: what it wrote before each pause is on its branch", async () => {
    const prompt = "create second.txt";
    bed.replies.set(prompt, [
      writeFileReply("toolu_pause_1", "first.txt"),
      writeFileReply("toolu_pause_2", "second.txt"),
    ]);
    const id = await client.submit({ repo: `file://${bed.origin}`, prompt });
    for (const callId of ["toolu_pause_1", "toolu_pause_2"]) {
      const paused = await waitFor(id, (run) => run.permission?.callId === callId || ended(run));
      expect(paused.state).toBe("paused");
      // Kept in the record before the run said paused: the first file once the first call ran.
      if (callId === "toolu_pause_2") {
        expect(paused.workspace?.patch).toContain("+made for first.txt");
        // Listing runs leaves the kept trees out.
        const listed = (await client.runs.list()).find((run) => run.id === id);
        expect(listed?.state).toBe("paused");
        expect(listed?.workspace).toBeUndefined();
      }
      await client.approve(id, callId, true);
    }
    const run = await waitFor(id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(run.attempts).toBe(3);
    expect(bed.branchFile(`yoake/${id}`, "first.txt")).toBe("made for first.txt\n");
    expect(bed.branchFile(`yoake/${id}`, "second.txt")).toBe("made for second.txt\n");
    expect(bed.branchFile(`yoake/${id}`, "README.md")).toBe("# project\n");
    expect(run.workspace).toBeUndefined();
  }, 120_000);

  it("hands a run over when its worker is stopped mid-run: the worker exits, the next continues with what it wrote", async () => {
    // A fleet of its own: one worker, stopped while the run's second request hangs at the provider.
    const { url: ownUrl, client: own } = await bed.database("handover");
    const prompt = "create handed-over.txt";
    bed.replies.set(prompt, [
      writeFileReply("toolu_before_stop", "before-stop.txt", "written before the stop\n"),
      { fault: "stall" },
    ]);
    // The stalled request never ends: the worker waits 1 s for a safe point, then cuts the run.
    const first = bed.startWorker(ownUrl, "--handover-wait", "1");
    const id = await own.submit({
      repo: `file://${bed.origin}`,
      prompt,
      overrides: { tools: { approve: [] } },
    });
    for (;;) {
      const asked = bed.provider.requests.filter((request) => userTexts(request.body)[0] === prompt);
      if (asked.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await bed.stopWorker(first);
    const handed = await own.runs.get(id);
    expect(handed).toMatchObject({ state: "queued", attempts: 1 });
    expect(handed?.worker).toBeUndefined();
    expect(handed?.workspace?.patch).toContain("+written before the stop");

    bed.startWorker(ownUrl);
    const run = await waitForRun(own, id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(run.attempts).toBe(2);
    expect(bed.branchFile(`yoake/${id}`, "before-stop.txt")).toBe("written before the stop\n");
    const { sessionStore, close } = await openFleetStores(ownUrl, { env: bed.env });
    try {
      const types = (await sessionStore.read(run.sessionId as string)).map((entry) => entry.type);
      // One prompt, the stop left no end in the log, the next worker resumed it.
      expect(types.filter((type) => type === "user_input")).toHaveLength(1);
      expect(types.filter((type) => type === "run_end")).toHaveLength(1);
      expect(types).toContain("resumed");
    } finally {
      await close();
    }
  }, 120_000);

  it("finishes a run whose worker was SIGKILLed mid-run on another worker, from the stored session", async () => {
    bed.replies.set("create survivor.txt", [{ fault: "stall" }]);
    const id = await client.submit({
      repo: `file://${bed.origin}`,
      prompt: "create survivor.txt",
      timeoutSeconds: 5,
      overrides: { tools: { approve: [] } },
    });
    const running = await waitFor(id, (run) => run.state === "running" && run.sessionId !== undefined);
    // Wait until its first request is in flight (stalled at the provider), then kill that worker.
    for (;;) {
      if (bed.provider.requests.some((request) => userTexts(request.body)[0] === "create survivor.txt"))
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const victim = bed.workerProcess(running.worker);
    expect(victim).toBeDefined();
    victim?.kill("SIGKILL");
    // Meanwhile someone moves the branch on: the continued run still works on the commit its
    // first attempt started from, recorded with its session.
    const seed = path.join(bed.scratch, "seed");
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd,
        encoding: "utf8",
      }).trim();
    const started = git(seed, "rev-parse", "HEAD");
    expect(running.workspace).toEqual({ base: started, patch: "" });
    await writeFile(path.join(seed, "README.md"), "# moved on\n");
    git(seed, "commit", "--quiet", "--all", "-m", "moved on");
    git(seed, "push", "--quiet", "origin", "HEAD:main");
    const run = await waitFor(id, ended);
    expect(git(bed.origin, "rev-parse", `yoake/${id}^`)).toBe(started);
    git(seed, "push", "--quiet", "--force", "origin", `${started}:main`);
    expect(run.workspace).toBeUndefined();
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    expect(run.attempts).toBeGreaterThan(1);
    expect(run.workers[0]).toBe(running.worker);
    expect(run.workers.at(-1)).not.toBe(running.worker);
    expect(bed.branchFile(`yoake/${id}`, "survivor.txt")).toBe("made for survivor.txt\n");
    expect(bed.branchFile(`yoake/${id}`, "README.md")).toBe("# project\n");
    const { sessionStore, close } = await openFleetStores(url, { env: bed.env });
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
