import path from "node:path";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { CliError, ExitCode, type ExitCodeValue } from "./cli-error.js";
import type { CliIO } from "./io.js";

/**
 * `yoake worker`, `submit`, `runs`, `follow` and `approve`: runs on a queue in PostgreSQL, executed by any
 * number of workers (see `packages/fleet/README.md`). `@yoake/fleet` (pg, pg-boss) is loaded only
 * when one of them runs. Each action reports its exit code through `exit`.
 */
export function addFleetCommands(program: Command, io: CliIO, exit: (code: ExitCodeValue) => void): void {
  const db = (value: string | undefined): string => {
    const url = value ?? io.env.YOAKE_DATABASE_URL;
    if (url === undefined || url === "")
      throw new CliError("no database: give --db URL or set YOAKE_DATABASE_URL");
    return url;
  };
  const dbOption = "--db <url>";
  const dbHelp = "the fleet's PostgreSQL database (default: $YOAKE_DATABASE_URL)";

  program
    .command("worker")
    .description("take runs from the queue and execute each in a Pod, until stopped (SIGTERM, Ctrl-C)")
    .option(dbOption, dbHelp)
    .option("--concurrency <n>", "runs at once in this process", positiveInteger, 1)
    .option("--provider-limit <n>", "runs per provider across the fleet at once", positiveInteger, 8)
    .option(
      "--lease <seconds>",
      "how soon another worker may continue a run of a worker that died",
      positiveInteger,
      10,
    )
    .option(
      "--job-expire <seconds>",
      "how long a worker may go unheard (it dies, or loses the database) before its runs go to another worker, whatever the run's --timeout",
      positiveInteger,
      30,
    )
    .option(
      "--db-retry <seconds>",
      "how long a statement is retried while the database restarts, is stopped or has no connection free, before the run's step fails",
      positiveInteger,
      120,
    )
    .option(
      "--git-retry <seconds>",
      "how long a fetch or push is retried while the run's repository cannot be reached; a permanent failure (no such repository, refused credentials) fails the run at once",
      positiveInteger,
      120,
    )
    .option(
      "--handover-wait <seconds>",
      "when stopped, how long to wait for each run's next model request to start (nothing in flight, its log complete) before handing it over where it is",
      positiveInteger,
      30,
    )
    .option(
      "--db-connections <n>",
      "the most connections of this worker's pool (default 2 + concurrency, at most 10; the worker holds concurrency + 3 more: see the fleet README)",
      positiveInteger,
    )
    .option(
      "--allow-path <dir>",
      `a directory whose shared paths (submit --path) this worker runs; repeatable, also $${ALLOW_PATHS_VARIABLE} (separated by "${path.delimiter}"). Without one, --path runs are refused`,
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .addHelpText(
      "after",
      "\nA worker says every --job-expire/4 which runs it holds; a run nobody has heard from for\n--job-expire goes to another worker. While the database restarts, is stopped or is full, each\nstatement is retried for --db-retry. Connections: packages/fleet/README.md, \"Connections\".\n\nRuns see their own tree only: the worker's home, the repository cache, Yoake's state and the\ndatabase's sockets are hidden from their commands, and the database's URL is in no run's\nenvironment. Who may submit and what a run can reach: packages/fleet/README.md, \"Trust boundary\".",
    )
    .action(async (options: WorkerOptions) => {
      const { startFleetWorker } = await import("@yoake/fleet");
      const allowPaths = [
        ...(io.env[ALLOW_PATHS_VARIABLE] ?? "").split(path.delimiter).filter((dir) => dir !== ""),
        ...options.allowPath,
      ].map((dir) => path.resolve(io.cwd, dir));
      // Listened for before the worker says it is there: a stop sent as soon as it does is heard.
      const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
        process.once("SIGTERM", () => resolve("SIGTERM"));
        process.once("SIGINT", () => resolve("SIGINT"));
      });
      const worker = await connecting(options.db ?? io.env.YOAKE_DATABASE_URL, () =>
        startFleetWorker({
          url: db(options.db),
          concurrency: options.concurrency,
          providerLimit: options.providerLimit,
          leaseMs: options.lease * 1000,
          jobExpireMs: options.jobExpire * 1000,
          databaseRetryMs: options.dbRetry * 1000,
          gitRetryMs: options.gitRetry * 1000,
          handoverWaitMs: options.handoverWait * 1000,
          ...(options.dbConnections !== undefined && { maxConnections: options.dbConnections }),
          allowPaths,
          env: io.env,
          log: (line) => io.stderr.write(`yoake worker: ${line}\n`),
        }),
      );
      io.stderr.write(`yoake worker: ${worker.id} takes runs (concurrency ${options.concurrency})\n`);
      const signal = await stopSignal;
      // The log says why the worker went away, and that it did.
      io.stderr.write(`yoake worker: ${worker.id} stopping (${signal})\n`);
      await worker.stop();
      io.stderr.write(`yoake worker: ${worker.id} stopped\n`);
      exit(ExitCode.ok);
    });

  program
    .command("submit")
    .description("queue a run and print its id; --follow prints its events as they are stored")
    .argument("<prompt>", "what the agent is asked")
    .option(dbOption, dbHelp)
    .option(
      "--repo <url>",
      "the git repository to clone for the run; its branch yoake/<run id> is pushed back",
    )
    .option("--ref <ref>", "the branch or tag to start from")
    .option(
      "--path <dir>",
      "instead of --repo: a directory every worker reaches at the same path (workers run it only inside their --allow-path)",
    )
    .option("--model <provider/model>", "the model")
    .option("--yes", "approve every tool call (else a call that needs approval pauses the run)")
    .option(
      "--timeout <seconds>",
      "how long the run's queue job may stay taken before the queue hands it out again (a backstop: a worker not heard from for its --job-expire loses the run sooner)",
      positiveInteger,
    )
    .option("--patch", "keep the changes as a patch in the result instead of pushing a branch")
    .option(
      "--follow",
      "print the run's events as -p --output-format stream-json does, until it ends or pauses",
    )
    .action(async (prompt: string, options: SubmitOptions) => {
      const { FleetClient } = await import("@yoake/fleet");
      const client = await connecting(options.db ?? io.env.YOAKE_DATABASE_URL, () =>
        FleetClient.connect(db(options.db)),
      );
      try {
        const id = await client
          .submit({
            prompt,
            ...(options.repo !== undefined && { repo: options.repo }),
            ...(options.ref !== undefined && { ref: options.ref }),
            ...(options.path !== undefined && { path: path.resolve(io.cwd, options.path) }),
            ...(options.model !== undefined && { model: options.model }),
            ...(options.yes === true && { overrides: { tools: { approve: [] } } }),
            ...(options.patch === true && { patchOnly: true }),
            ...(options.timeout !== undefined && { timeoutSeconds: options.timeout }),
          })
          .catch((error: unknown) => {
            throw new CliError((error as Error).message);
          });
        io.stdout.write(`${id}\n`);
        if (options.follow === true) {
          const { followRun } = await import("./fleet-follow.js");
          exit(await followRun(client, id, io));
        } else exit(ExitCode.ok);
      } finally {
        await client.close();
      }
    });

  program
    .command("runs")
    .description("list the fleet's runs and their state (the latest 100)")
    .option(dbOption, dbHelp)
    .option("--json", "one JSON object per run")
    .action(async (options: { db?: string; json?: boolean }) => {
      const { FleetClient } = await import("@yoake/fleet");
      const { pausedCallLabel } = await import("./fleet-paused.js");
      const client = await connecting(options.db ?? io.env.YOAKE_DATABASE_URL, () =>
        FleetClient.connect(db(options.db)),
      );
      try {
        const now = await client.database.now();
        for (const run of await client.runs.list()) {
          if (options.json === true) {
            io.stdout.write(`${JSON.stringify(run)}\n`);
            continue;
          }
          // A run held or waiting: how long since its worker (or its queueing) was last heard from.
          const silent =
            (run.state === "running" || run.state === "queued") && run.heardAt !== undefined
              ? `heard ${Math.max(0, Math.round((now.getTime() - run.heardAt.getTime()) / 1000))} s ago  `
              : "";
          const detail =
            run.state === "paused"
              ? `waits on ${pausedCallLabel(run)}`
              : (run.result?.branch ??
                (run.result?.patch !== undefined ? "a patch: yoake patch <run>" : (run.result?.error ?? "")));
          io.stdout.write(
            `${run.id}  ${run.state.padEnd(9)} ${run.createdAt.toISOString()}  ${silent}${detail}\n`,
          );
        }
        exit(ExitCode.ok);
      } finally {
        await client.close();
      }
    });

  program
    .command("patch")
    .description("print the changes of a run submitted with --patch (for git apply)")
    .argument("<run>", "the run id (or an unambiguous prefix)")
    .option(dbOption, dbHelp)
    .action(async (run: string, options: { db?: string }) => {
      const { FleetClient } = await import("@yoake/fleet");
      const client = await connecting(options.db ?? io.env.YOAKE_DATABASE_URL, () =>
        FleetClient.connect(db(options.db)),
      );
      try {
        const record = await client.run(run).catch((error: unknown) => {
          throw new CliError((error as Error).message);
        });
        const patch = record.result?.patch;
        if (patch === undefined)
          throw new CliError(
            ["finished", "failed", "cancelled"].includes(record.state)
              ? `run ${record.id} kept no patch (submitted without --patch, or it changed nothing)`
              : `run ${record.id} is ${record.state}: its patch is kept when it finishes`,
          );
        io.stdout.write(patch);
        exit(ExitCode.ok);
      } finally {
        await client.close();
      }
    });

  program
    .command("follow")
    .description("print a run's events as submit --follow does, from its first, until it ends or pauses")
    .argument("<run>", "the run id (or an unambiguous prefix)")
    .option(dbOption, dbHelp)
    .action(async (run: string, options: { db?: string }) => {
      const { FleetClient } = await import("@yoake/fleet");
      const client = await connecting(options.db ?? io.env.YOAKE_DATABASE_URL, () =>
        FleetClient.connect(db(options.db)),
      );
      try {
        const { id } = await client.run(run).catch((error: unknown) => {
          throw new CliError((error as Error).message);
        });
        const { followRun } = await import("./fleet-follow.js");
        exit(await followRun(client, id, io));
      } finally {
        await client.close();
      }
    });

  program
    .command("approve")
    .description("answer the tool call a paused run waits on; the run is queued again")
    .argument("<run>", "the run id (or an unambiguous prefix)")
    .argument("<call>", "the tool call id (yoake runs shows it)")
    .argument("<decision>", "allow or deny")
    .option(dbOption, dbHelp)
    .action(async (run: string, call: string, decision: string, options: { db?: string }) => {
      if (decision !== "allow" && decision !== "deny")
        throw new CliError(`decision must be allow or deny, not ${JSON.stringify(decision)}`);
      const { FleetClient } = await import("@yoake/fleet");
      const client = await connecting(options.db ?? io.env.YOAKE_DATABASE_URL, () =>
        FleetClient.connect(db(options.db)),
      );
      try {
        const record = await client.run(run).catch((error: unknown) => {
          throw new CliError((error as Error).message);
        });
        await client.approve(record.id, call, decision === "allow").catch((error: unknown) => {
          throw new CliError((error as Error).message);
        });
        const { pausedCallLabel } = await import("./fleet-paused.js");
        io.stdout.write(
          `${decision === "allow" ? "allowed" : "denied"} ${pausedCallLabel(record)} of run ${record.id}: the run is queued again (yoake follow ${record.id})\n`,
        );
        exit(ExitCode.ok);
      } finally {
        await client.close();
      }
    });
}

interface WorkerOptions {
  db?: string;
  concurrency: number;
  providerLimit: number;
  lease: number;
  jobExpire: number;
  dbRetry: number;
  gitRetry: number;
  handoverWait: number;
  dbConnections?: number;
  allowPath: string[];
}

/** Directories whose shared paths a worker runs, besides `--allow-path`. */
const ALLOW_PATHS_VARIABLE = "YOAKE_WORKER_ALLOW_PATHS";

interface SubmitOptions {
  db?: string;
  repo?: string;
  ref?: string;
  path?: string;
  model?: string;
  yes?: true;
  patch?: true;
  timeout?: number;
  follow?: true;
}

/** Runs `connect`, turning a database that cannot be reached into a one-line error. */
async function connecting<T>(url: string | undefined, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (error) {
    if (error instanceof CliError) throw error;
    const { redactUrl } = await import("@yoake/fleet");
    throw new CliError(`cannot use the database ${redactUrl(url ?? "")}: ${(error as Error).message}`);
  }
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1");
  return n;
}
