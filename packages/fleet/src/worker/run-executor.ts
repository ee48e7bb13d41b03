import type { ManifestLayerInput, PodRunResult } from "@yoake/pod";
import { Pod, RunCostMeter } from "@yoake/pod";
import { toWireEvent } from "@yoake/pod/protocol";
import type pg from "pg";
import type { PostgresBlobStore } from "../blobs/postgres-blob-store.js";
import { RunEventWriter } from "../runs/run-events.js";
import type { PendingPermission, RunOutcome, RunRecord, RunTable } from "../runs/run-record.js";
import type { PostgresSessionStore } from "../sessions/postgres-session-store.js";
import { rateLimitDelay } from "./rate-limit-delay.js";
import type { RepositoryCache } from "./repository-cache.js";
import { prepareWorkspace, type Workspace } from "./workspace.js";

/** What executing a run came to: an end, a pause for approval, or a provider's limit to wait out. */
export type Execution =
  | { kind: "ended"; outcome: RunOutcome }
  | { kind: "paused"; permission: PendingPermission }
  | { kind: "rate_limited"; retryAfterSeconds: number };

export interface ExecutorContext {
  pool: pg.Pool;
  runs: RunTable;
  sessions: PostgresSessionStore;
  blobs: PostgresBlobStore;
  /** The environment of the Pods (API keys, base URLs, the session key's location). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where runs on a `repo` get their working trees. */
  repositories: RepositoryCache;
}

/**
 * Runs (or continues) one run in a Pod whose session and blobs are in the database. A run that has
 * a session already continues it from the store: after an approval the paused call asks again and
 * gets the stored answer; after a crashed worker the restored Pod answers the unanswered calls as
 * interrupted and goes on, so no call recorded as done runs again. The Pod's events are stored
 * in their stream-json form for followers, and what the attempt cost is added to the run's total.
 * A run that leaves the worker before its end (paused, rate limited) keeps its working tree in the
 * run's record first, and the worker that continues it starts from that tree; a run continued
 * after its worker died starts from the commit its first attempt did (recorded with its session).
 * `podClosed` is called once the Pod is closed, before the changes are committed and pushed (or
 * kept): the worker may start its next run meanwhile.
 */
export async function executeRun(
  run: RunRecord,
  context: ExecutorContext,
  podClosed: () => void = () => undefined,
): Promise<Execution> {
  const workspace = await prepareWorkspace(run.spec, context.repositories, run.createdAt, run.workspace);
  try {
    const ran = await runPod(run, context, workspace);
    podClosed();
    if (ran.kind !== "ended") {
      const saved = await workspace.save();
      if (saved !== undefined) await context.runs.keepWorkspace(run.id, saved);
      // Only now may an approval queue it for another worker.
      if (ran.kind === "paused") await context.runs.pause(run.id, ran.permission);
      return ran;
    }
    // Only a finished run's changes are delivered.
    if (ran.outcome.status !== "finished") return ran;
    const delivered = await workspace.deliver(run.id);
    return { kind: "ended", outcome: { ...ran.outcome, ...delivered } };
  } finally {
    await workspace.dispose();
  }
}

/** The Pod's part of a run: everything but the delivery of its changes. */
async function runPod(run: RunRecord, context: ExecutorContext, workspace: Workspace): Promise<Execution> {
  const overrides: ManifestLayerInput = {
    ...(run.spec.overrides as ManifestLayerInput | undefined),
    ...(run.spec.model !== undefined && { model: { ref: run.spec.model } }),
  };
  const pod = await Pod.create({
    cwd: workspace.dir,
    env: context.env,
    overrides,
    sessionStore: context.sessions,
    blobStore: context.blobs,
    session: run.sessionId ?? "new",
  });
  // A run stores events only after its session is recorded: one without a session has none yet.
  const events = await RunEventWriter.open(context.pool, run.id, run.sessionId === undefined);
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
    if (run.sessionId === undefined) await context.runs.setSession(run.id, pod.sessionId, workspace.base);
    let result = await start(pod, run);
    while (result.permissionRequest !== undefined) {
      const request = result.permissionRequest;
      if (run.decision?.callId !== request.callId) {
        // Stored before the state says paused: a follower reading `paused` has every event.
        await settle();
        return {
          kind: "paused",
          permission: {
            callId: request.callId,
            tool: request.tool,
            ...(request.preview?.ok === true && { summary: request.preview.diff.slice(0, 4000) }),
          },
        };
      }
      result = await pod.respond(
        request.id,
        run.decision.allow ? "allow_once" : { deny: "denied by the approver" },
      );
    }
    const totalCost = await settle();
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
    };
  } finally {
    stopListening();
    await pod.close();
  }
}

/** A new run sends its prompt; a continued one resumes where its log stopped. */
async function start(pod: Pod, run: RunRecord): Promise<PodRunResult> {
  if (pod.restored === undefined) return pod.run(run.spec.prompt);
  try {
    return await pod.resume();
  } catch (error) {
    // The log ended with a finished run (the worker died before storing its result): nothing is left to run.
    const last = [...pod.history]
      .reverse()
      .find((item) => item.type === "message" && item.role === "assistant");
    if (/no paused run/.test((error as Error).message) && last?.type === "message")
      return { status: "finished", text: last.text, usage: {}, turns: 0 } as unknown as PodRunResult;
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
