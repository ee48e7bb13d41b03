import type { Usage } from "@yoake/llm-worker";
import type { Queryable } from "../database/retry.js";

/** What a run does, as submitted. */
export interface RunSpec {
  /** A git repository URL cloned into a scratch directory per run (file://, https://, ...). */
  repo?: string;
  /** The branch, tag or commit to check out; default the repository's default branch. */
  ref?: string;
  /** Instead of `repo`: a directory every worker reaches at the same path (shared storage). */
  path?: string;
  prompt: string;
  /** `provider/model`, as `--model`; default the manifest's. */
  model?: string;
  /** Manifest layers on top of the project's (`[limits]`, `[tools]`, ...), as a Pod's `overrides`. */
  overrides?: Record<string, unknown>;
  /**
   * How long the run's job may stay taken before pg-boss hands it out again (default 15 min): a
   * backstop only. A worker not heard from for its `jobExpireMs` loses the run sooner, and a job
   * handed out while the run's worker is alive is dropped.
   */
  timeoutSeconds?: number;
  /** Keep the changes as a patch in the run's result instead of pushing a branch. */
  patchOnly?: boolean;
}

/** Where a run is. `paused`: it waits for `approve`; no worker holds it. */
export type RunState = "queued" | "running" | "paused" | "finished" | "failed" | "cancelled";

/** How a run ended. */
export interface RunOutcome {
  status: "finished" | "failed" | "cancelled";
  answer?: string;
  error?: string;
  usage?: Usage;
  /**
   * US dollars at list prices, over every attempt of the run (each priced by the model that
   * answered each turn, as `yoake -p --output-format json` prices); absent when the model has no
   * prices in the catalogue or manifest.
   */
  costUsd?: number;
  /** The model asked (`provider/model`, or `scheme/id`). */
  model?: string;
  /** Model requests of the attempt that ended the run. */
  turns?: number;
  /** `yoake/<run id>`, pushed to the repository, when the run changed files. */
  branch?: string;
  /** The changes as a `git diff` when the run asked for a patch. */
  patch?: string;
}

/**
 * A run's working tree when it left a worker before its end: the commit it started from and its
 * changes since, as `git diff --binary` (ignored files are not kept).
 */
export interface SavedWorkspace {
  base: string;
  patch: string;
}

/** The tool call a paused run waits on. */
export interface PendingPermission {
  callId: string;
  tool: string;
  summary?: string;
}

export interface RunRecord {
  id: string;
  state: RunState;
  spec: RunSpec;
  sessionId?: string;
  /** The worker holding the run now (or the one that ended it); none while queued or paused. */
  worker?: string;
  /** Every worker that took the run, in order (`host:pid`): who paused it, who resumed it. */
  workers: string[];
  attempts: number;
  permission?: PendingPermission;
  decision?: { callId: string; allow: boolean };
  /**
   * Where the run's working tree was when it last left a worker (paused, rate limited), or the
   * commit it started from; none once it ended.
   */
  workspace?: SavedWorkspace;
  result?: RunOutcome;
  /**
   * When the worker holding the run last said it still does (every quarter of the fleet's job
   * expiry), or when the run was last queued: how long a run has not been heard from.
   */
  heardAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

interface RunRow {
  id: string;
  state: RunState;
  spec: RunSpec;
  session_id: string | null;
  worker: string | null;
  workers: string[];
  attempts: number;
  cost_usd: number | null;
  permission: PendingPermission | null;
  decision: { callId: string; allow: boolean } | null;
  workspace: SavedWorkspace | null;
  result: RunOutcome | null;
  heard_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: RunRow): RunRecord {
  return {
    id: row.id,
    state: row.state,
    spec: row.spec,
    ...(row.session_id !== null && { sessionId: row.session_id }),
    ...(row.worker !== null && { worker: row.worker }),
    workers: row.workers,
    attempts: row.attempts,
    ...(row.permission !== null && { permission: row.permission }),
    ...(row.decision !== null && { decision: row.decision }),
    ...(row.workspace !== null && { workspace: row.workspace }),
    ...(row.result !== null && { result: row.result }),
    ...(row.heard_at !== null && row.heard_at !== undefined && { heardAt: row.heard_at }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A run whose worker went silent (or whose job was lost), and the timeout it was submitted with. */
export interface SilentRun {
  id: string;
  timeoutSeconds?: number;
}

/** `$n` milliseconds ago, as SQL. */
const agoMs = (n: number) => `now() - $${n} * interval '1 millisecond'`;

/**
 * The runs table (`yoake_runs`). A worker holds a run from its `claim` until it ends it, pauses it
 * or queues it again, and says so every so often (`heartbeat`); every change a worker makes to a
 * run it holds is made only while it still holds it (`worker` is this worker and the run is
 * `running`), so a worker that lost the database and came back after the run was taken over
 * changes nothing of the new holder's.
 */
export class RunTable {
  constructor(private readonly pool: Queryable) {}

  async insert(id: string, spec: RunSpec): Promise<void> {
    await this.pool.query("INSERT INTO yoake_runs (id, state, spec) VALUES ($1, 'queued', $2)", [id, spec]);
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const { rows } = await this.pool.query<RunRow>("SELECT * FROM yoake_runs WHERE id::text = $1", [id]);
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  /** The run whose id is `idOrPrefix` or starts with it, if exactly one. */
  async find(idOrPrefix: string): Promise<RunRecord[]> {
    const { rows } = await this.pool.query<RunRow>(
      "SELECT * FROM yoake_runs WHERE id::text LIKE $1 ORDER BY created_at LIMIT 2",
      [`${idOrPrefix.toLowerCase().replaceAll(/[%_\\]/g, "")}%`],
    );
    return rows.map(fromRow);
  }

  /** The latest runs, oldest first, without their kept working trees (a paused run's may be large). */
  async list(limit = 100): Promise<RunRecord[]> {
    const { rows } = await this.pool.query<RunRow>(
      `SELECT * FROM (SELECT id, state, spec, session_id, worker, workers, attempts, cost_usd, permission,
                             decision, NULL AS workspace, result, heard_at, created_at, updated_at
                        FROM yoake_runs ORDER BY created_at DESC LIMIT $1) recent
        ORDER BY created_at`,
      [limit],
    );
    return rows.map(fromRow);
  }

  /**
   * `worker` takes the run: one that is queued, or one whose holder has not been heard from for
   * `silentMs` (it died or lost the database). Undefined when the run is not to be taken: ended,
   * paused, or running on a worker that is alive (a second job of one run is dropped, so a run is
   * executed once at a time). Racing claims are ordered by the row's lock: one wins.
   */
  async claim(id: string, worker: string, silentMs: number): Promise<RunRecord | undefined> {
    const { rows } = await this.pool.query<RunRow>(
      `UPDATE yoake_runs SET state = 'running', worker = $2, workers = array_append(workers, $2),
          attempts = attempts + 1, heard_at = now(), updated_at = now()
        WHERE id = $1 AND (state = 'queued' OR (state = 'running' AND (heard_at IS NULL OR heard_at < ${agoMs(3)})))
        RETURNING *`,
      [id, worker, silentMs],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  /**
   * `worker` says it still holds `ids`; returns those it no longer holds (taken over by another
   * worker while this one was not heard from, or ended).
   */
  async heartbeat(ids: readonly string[], worker: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE yoake_runs SET heard_at = now()
        WHERE id = ANY($1::uuid[]) AND worker = $2 AND state = 'running' RETURNING id`,
      [ids, worker],
    );
    const held = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !held.has(id));
  }

  /** Whether `worker` still holds the run. */
  async holds(id: string, worker: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      "SELECT 1 FROM yoake_runs WHERE id = $1 AND worker = $2 AND state = 'running'",
      [id, worker],
    );
    return rowCount === 1;
  }

  /**
   * Runs to queue again: those `running` on a worker not heard from for `silentMs`, and those
   * `queued` for longer than that with no job that will take them (`queue`'s jobs: none waiting,
   * none taken in that time; a job lost with a database crash, or a worker that died between
   * queueing and its job). The caller sends each a job, then `release`s them.
   */
  async silent(silentMs: number, queue: string, limit = 100): Promise<SilentRun[]> {
    const { rows } = await this.pool.query<{ id: string; timeout: number | null }>(
      `SELECT r.id, (r.spec->>'timeoutSeconds')::int AS timeout FROM yoake_runs r
        WHERE (r.state = 'running' AND (r.heard_at IS NULL OR r.heard_at < ${agoMs(1)}))
           OR (r.state = 'queued' AND COALESCE(r.heard_at, r.updated_at) < ${agoMs(1)}
               AND NOT EXISTS (SELECT 1 FROM pgboss.job j
                                WHERE j.name = $2 AND j.data->>'runId' = r.id::text
                                  AND (j.state IN ('created', 'retry')
                                       OR (j.state = 'active' AND j.started_on > ${agoMs(1)}))))
        LIMIT $3`,
      [silentMs, queue, limit],
    );
    return rows.map((row) => ({ id: row.id, ...(row.timeout !== null && { timeoutSeconds: row.timeout }) }));
  }

  /**
   * Marks silent runs (their jobs sent) as queued and heard from now, unless meanwhile claimed or
   * ended; returns the ids it released.
   */
  async release(ids: readonly string[], silentMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE yoake_runs SET state = 'queued', worker = NULL, heard_at = now(), updated_at = now()
        WHERE id = ANY($1::uuid[]) AND state IN ('queued', 'running')
          AND COALESCE(heard_at, updated_at) < ${agoMs(2)} RETURNING id`,
      [ids, silentMs],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Records the run's session and, for a run on a repository, the commit its tree started from: a
   * worker that continues the run after this one died starts from the same commit.
   */
  async setSession(id: string, worker: string, sessionId: string, base?: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE yoake_runs SET session_id = $3, updated_at = now(),
          workspace = CASE WHEN $4::text IS NULL THEN workspace
                           ELSE COALESCE(workspace, jsonb_build_object('base', $4::text, 'patch', '')) END
        WHERE id = $1 AND worker = $2 AND state = 'running'`,
      [id, worker, sessionId, base ?? null],
    );
    return rowCount === 1;
  }

  async pause(id: string, worker: string, permission: PendingPermission): Promise<void> {
    await this.pool.query(
      `UPDATE yoake_runs SET state = 'paused', permission = $3, decision = NULL, worker = NULL, updated_at = now()
        WHERE id = $1 AND worker = $2 AND state = 'running'`,
      [id, worker, permission],
    );
  }

  /** Keeps the run's working tree for the worker that continues it (while `worker` holds it). */
  async keepWorkspace(id: string, worker: string, workspace: SavedWorkspace): Promise<void> {
    await this.pool.query(
      "UPDATE yoake_runs SET workspace = $3 WHERE id = $1 AND worker = $2 AND state = 'running'",
      [id, worker, workspace],
    );
  }

  /** Records the answer to a paused run's request; false when the run is not waiting on `callId`. */
  async decide(id: string, callId: string, allow: boolean): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE yoake_runs SET state = 'queued', decision = $3, permission = NULL, updated_at = now()
        WHERE id = $1 AND state = 'paused' AND permission->>'callId' = $2`,
      [id, callId, { callId, allow }],
    );
    return rowCount === 1;
  }

  /** Back to the queue (a provider's limit): any worker takes it up later. */
  async requeue(id: string, worker: string): Promise<void> {
    // Only while this worker still holds it (its job, delayed, is already queued).
    await this.pool.query(
      "UPDATE yoake_runs SET state = 'queued', worker = NULL, heard_at = now(), updated_at = now() WHERE id = $1 AND worker = $2 AND state = 'running'",
      [id, worker],
    );
  }

  /**
   * Adds what an attempt cost to the run's total and returns the total, or undefined when no
   * attempt so far was priced.
   */
  async addCost(id: string, dollars: number | undefined): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ cost_usd: number | null }>(
      `UPDATE yoake_runs SET cost_usd = CASE WHEN $2::float8 IS NULL THEN cost_usd ELSE COALESCE(cost_usd, 0) + $2 END
        WHERE id = $1 RETURNING cost_usd`,
      [id, dollars ?? null],
    );
    return rows[0]?.cost_usd ?? undefined;
  }

  /**
   * Stores how the run ended (and drops its kept tree), if `worker` still holds it; `worker` keeps
   * naming the worker that ended it. False when the run was taken over (nothing is stored).
   */
  async finish(id: string, worker: string, outcome: RunOutcome): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE yoake_runs SET state = $3, result = $4, workspace = NULL, updated_at = now()
        WHERE id = $1 AND worker = $2 AND state = 'running'`,
      [id, worker, outcome.status, outcome],
    );
    return rowCount === 1;
  }
}
