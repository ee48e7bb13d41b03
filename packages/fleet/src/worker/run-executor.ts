import type { PodRunResult } from "@yoake/pod";
import { Pod, RunCostMeter, SessionLogError } from "@yoake/pod";
import { toWireEvent } from "@yoake/pod/protocol";
import type { PostgresBlobStore } from "../blobs/postgres-blob-store.js";
import type { Queryable, RetryPolicy } from "../database/retry.js";
import { RunEventWriter } from "../runs/run-events.js";
import type { PendingPermission, RunOutcome, RunRecord, RunTable } from "../runs/run-record.js";
import type { PostgresSessionStore } from "../sessions/postgres-session-store.js";
import { RepositoryUnreachableError } from "./git-retry.js";
import { Handover } from "./handover.js";
import { rateLimitDelay } from "./rate-limit-delay.js";
import type { RepositoryCache } from "./repository-cache.js";
import { runOverrides } from "./run-confinement.js";
import { prepareWorkspace, type Workspace } from "./workspace.js";

/**
 * What executing a run came to: an end, a pause for approval, a provider's limit to wait out, or
 * a handover to the next worker (this one stops).
 */
export type Execution =
  /**
   * `finishedBefore`: the log already held the run's end (an earlier attempt finished and its
   * worker died, was taken over, or could not push before its result was stored).
   */
  | { kind: "ended"; outcome: RunOutcome; finishedBefore?: boolean }
  | { kind: "paused"; permission: PendingPermission }
  | { kind: "rate_limited"; retryAfterSeconds: number }
  /**
   * Its branch could not be pushed (the repository unreachable for the whole git retry time): its
   * changes are kept in its record, and it is queued again to deliver them.
   */
  | { kind: "undelivered"; retryAfterSeconds: number; reason: string }
  /** The worker stops: the run was ended where it was, for the next worker to continue. */
  | { kind: "stopped" }
  /**
   * Another worker took the run over while this one was not heard from (it lost the database):
   * this one ended it where it was and stores and delivers nothing of it.
   */
  | { kind: "lost" };

export interface ExecutorContext {
  /** This worker (`host:pid`): it changes a run only while it holds it. */
  worker: string;
  /** Queries retried while the database is away (the worker's `--db-retry`). */
  queries: Queryable;
  runs: RunTable;
  sessions: PostgresSessionStore;
  blobs: PostgresBlobStore;
  /**
   * The environment of the Pods (API keys, base URLs, `HOME`, `PATH`): without the worker's own
   * variables (`podEnvironment`).
   */
  env: Readonly<Record<string, string | undefined>>;
  /** What the runs' commands must not see (`hiddenFromRuns`): `PodOptions.shellHide`. */
  shellHide: readonly string[];
  /** Where runs on a `repo` get their working trees. */
  repositories: RepositoryCache;
  /** How long fetches and pushes are retried while the repository cannot be reached. */
  gitRetry: RetryPolicy;
}

/**
 * How long an undelivered run waits in the queue before a worker tries its push again: a quarter
 * of the git retry time, from 1 s to 30 s.
 */
const redeliverAfterSeconds = (gitRetry: RetryPolicy) =>
  Math.min(30, Math.max(1, Math.ceil(gitRetry.retryMs / 4000)));

/**
 * Runs (or continues) one run in a Pod whose session and blobs are in the database. `run.spec` is
 * one the worker admitted (`admitRun`); its overrides go under `WORKER_OVERRIDES`, the project's
 * own manifest needs the worker's trust for anything beyond the safe defaults (else the run fails),
 * and the shell hides `context.shellHide`. A run that has
 * a session already continues it from the store: after an approval the paused call asks again and
 * gets the stored answer; after a crashed worker the restored Pod answers the unanswered calls as
 * interrupted and goes on, so no call recorded as done runs again. The Pod's events are stored
 * in their stream-json form for followers, and what the attempt cost is added to the run's total.
 * A run that leaves the worker before its end (paused, rate limited, stopped) keeps its tree in the
 * run's record first, and the worker that continues it starts from that tree; a run continued
 * after its worker died starts from the commit its first attempt did (recorded with its session).
 * `podClosed` is called once the Pod is closed, before the changes are committed and pushed (or
 * kept): the worker may start its next run meanwhile. `handover.stop()` ends the run where it is.
 */
export async function executeRun(
  run: RunRecord,
  context: ExecutorContext,
  podClosed: () => void = () => undefined,
  handover: Handover = new Handover(context.sessions),
): Promise<Execution> {
  const workspace = await prepareWorkspace(
    run.spec,
    context.repositories,
    run.createdAt,
    run.workspace,
    context.gitRetry,
  );
  try {
    const ran = await runPod(run, context, workspace, handover);
    podClosed();
    if (ran.kind === "lost" || handover.lost) return { kind: "lost" };
    if (ran.kind !== "ended") {
      const saved = await workspace.save();
      if (saved !== undefined) await context.runs.keepWorkspace(run.id, context.worker, saved);
      // Only now may an approval queue it for another worker.
      if (ran.kind === "paused") await context.runs.pause(run.id, context.worker, ran.permission);
      return ran;
    }
    // Only a finished run's changes are delivered, and only by the worker that holds it: one
    // that lost the database and came back after the run was taken over pushes nothing.
    if (ran.outcome.status !== "finished") return ran;
    if (!(await context.runs.holds(run.id, context.worker))) return { kind: "lost" };
    try {
      // Delivery and result as one idempotent step: an earlier attempt that pushed the branch
      // and died before storing its result left the branch, which the result then names.
      const earlier = ran.finishedBefore === true ? await workspace.delivered(run.id) : {};
      if (earlier.branch !== undefined) return { kind: "ended", outcome: { ...ran.outcome, ...earlier } };
      const delivered = await workspace.deliver(run.id);
      return { kind: "ended", outcome: { ...ran.outcome, ...delivered } };
    } catch (error) {
      if (!(error instanceof RepositoryUnreachableError)) throw error;
      // The run's work is not lost with its tree: kept in its record (the commit included), for
      // the worker that delivers it once the repository is back (its log says it finished).
      const saved = await workspace.save();
      if (saved !== undefined) await context.runs.keepWorkspace(run.id, context.worker, saved);
      return {
        kind: "undelivered",
        retryAfterSeconds: redeliverAfterSeconds(context.gitRetry),
        reason: (error as Error).message.split("\n")[0] as string,
      };
    }
  } finally {
    // A tree that cannot be deleted now (a stopped run's command still writing in it) is the
    // cache's leftover, not the run's failure.
    await workspace
      .dispose()
      .catch(() =>
        new Promise((resolve) => setTimeout(resolve, 500)).then(() =>
          workspace.dispose().catch(() => undefined),
        ),
      );
  }
}

/** The Pod's part of a run: everything but the delivery of its changes. */
async function runPod(
  run: RunRecord,
  context: ExecutorContext,
  workspace: Workspace,
  handover: Handover,
): Promise<Execution> {
  const createPod = (session: string) =>
    Pod.create({
      cwd: workspace.dir,
      env: context.env,
      overrides: runOverrides(run.spec, workspace.readable),
      projectTrust: "refuse",
      shellHide: context.shellHide,
      sessionStore: handover.store,
      blobStore: context.blobs,
      session,
    });
  // A session is made with its first entry: a run handed over before that has an id and no log,
  // so it starts afresh (nothing of it was logged, so nothing was done).
  let sessionId = run.sessionId;
  const pod = await createPod(sessionId ?? "new").catch((error: unknown) => {
    if (sessionId === undefined || !(error instanceof SessionLogError && error.kind === "not_found"))
      throw error;
    sessionId = undefined;
    return createPod("new");
  });
  handover.attach(pod);
  // A run stores events only after its session is recorded: one without a session has none yet.
  const events = new RunEventWriter(context.queries, run.id);
  const cost = new RunCostMeter(pod.manifest.model);
  const history = () => pod.history;
  const stopListening = pod.listen((event) => {
    cost.observe(event);
    const wire = toWireEvent(event, history);
    if (wire !== undefined) events.add(wire);
  });
  // Every way out of an attempt stores its events and adds its cost first.
  const settle = async (): Promise<number | undefined> => {
    stopListening();
    await events.flush();
    return context.runs.addCost(run.id, cost.costUsd);
  };
  try {
    if (
      sessionId === undefined &&
      !(await context.runs.setSession(run.id, context.worker, pod.sessionId, workspace.base))
    ) {
      await settle();
      return { kind: "lost" };
    }
    // A stop (the worker's) cuts the run at its next safe point: a failure the cut caused is not
    // the run's. A run that returns before its cut has ended (or paused) as usual.
    const result = handover.cut
      ? undefined
      : await converse(pod, run)
          .catch((error: unknown) => {
            if (handover.cut) return undefined;
            throw error;
          })
          .finally(() => handover.settle());
    // Stored before the state says paused (or anything else): a follower then has every event.
    const totalCost = await settle();
    if (result === undefined || handover.cut) return { kind: "stopped" };
    const request = result.permissionRequest;
    if (request !== undefined)
      return {
        kind: "paused",
        permission: {
          callId: request.callId,
          tool: request.tool,
          ...(request.preview?.ok === true && { summary: request.preview.diff.slice(0, 4000) }),
        },
      };
    const retryAfter = rateLimitDelay(result);
    if (retryAfter !== undefined) return { kind: "rate_limited", retryAfterSeconds: retryAfter };
    const model = pod.manifest.model.ref ?? `${pod.manifest.model.scheme}/${pod.manifest.model.id}`;
    return {
      kind: "ended",
      outcome: {
        ...outcomeOf(result),
        model,
        turns: result.turns,
        ...(totalCost !== undefined && { costUsd: totalCost }),
      },
      ...(FINISHED_BEFORE.has(result) && { finishedBefore: true }),
    };
  } finally {
    stopListening();
    // A handed-over run's log is closed already: what the Pod would still write there is refused.
    await pod.close().catch((error: unknown) => {
      if (!handover.cut) throw error;
    });
  }
}

/**
 * Starts or continues the run, and answers the approval its record holds (the one it paused on);
 * returns at the end or at a request no one has answered yet.
 */
async function converse(pod: Pod, run: RunRecord): Promise<PodRunResult> {
  let result = await start(pod, run);
  while (result.permissionRequest !== undefined && run.decision?.callId === result.permissionRequest.callId)
    result = await pod.respond(
      result.permissionRequest.id,
      run.decision.allow ? "allow_once" : { deny: "denied by the approver" },
    );
  return result;
}

/** Results made up from a log that already held the run's end (no model was asked). */
const FINISHED_BEFORE = new WeakSet<PodRunResult>();

/**
 * A new run sends its prompt (as does one whose first attempt ended before its prompt was logged);
 * a continued one resumes where its log stopped.
 */
async function start(pod: Pod, run: RunRecord): Promise<PodRunResult> {
  if (pod.restored === undefined || pod.history.length === 0) return pod.run(run.spec.prompt);
  try {
    return await pod.resume();
  } catch (error) {
    // The log ended with a finished run (the worker died before storing its result): nothing is left to run.
    const last = [...pod.history]
      .reverse()
      .find((item) => item.type === "message" && item.role === "assistant");
    if (/no paused run/.test((error as Error).message) && last?.type === "message") {
      const result = { status: "finished", text: last.text, usage: {}, turns: 0 } as unknown as PodRunResult;
      FINISHED_BEFORE.add(result);
      return result;
    }
    throw error;
  }
}

function outcomeOf(result: PodRunResult): RunOutcome {
  switch (result.status) {
    case "finished":
      return { status: "finished", answer: result.text, usage: result.usage };
    case "failed":
      return { status: "failed", error: result.error.message, usage: result.usage };
    case "cancelled":
      return { status: "cancelled", error: result.reason, usage: result.usage };
    case "paused":
      return { status: "failed", error: `paused by ${result.by}: ${result.reason}`, usage: result.usage };
  }
}
