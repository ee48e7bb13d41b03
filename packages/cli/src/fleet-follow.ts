import type { FleetClient, RunRecord } from "@yoake/fleet";
import type { Usage } from "@yoake/llm-worker";
import type { WireEvent } from "@yoake/pod/protocol";
import { ExitCode, type ExitCodeValue } from "./cli-error.js";
import { pausedRunLine } from "./fleet-paused.js";
import { fullUsage, type RunSummary } from "./headless/run-summary.js";
import { wireEventLine } from "./headless/stream-event.js";
import type { CliIO } from "./io.js";

/**
 * `yoake submit --follow` and `yoake follow`: prints the run's events as `yoake -p --output-format
 * stream-json` prints them (the same encoder, the same shapes), from the stored events of every
 * worker that took the run, then the same `result` line. Exits 0 when the run finished; a run
 * that paused for approval is not done: stderr says which call waits and how to go on, exit 1.
 */
export async function followRun(client: FleetClient, id: string, io: CliIO): Promise<ExitCodeValue> {
  const sofar = new TurnTally();
  const run = await client.follow(id, (event) => {
    sofar.observe(event);
    io.stdout.write(wireEventLine(event));
  });
  io.stdout.write(`${JSON.stringify(fleetRunSummary(run, sofar))}\n`);
  if (run.state === "paused") {
    io.stderr.write(`yoake: ${pausedRunLine(run)}\n`);
    return ExitCode.runFailed;
  }
  return run.state === "finished" ? ExitCode.ok : ExitCode.runFailed;
}

/** The turns and usage a run's events report, for a run that paused and has no result yet. */
class TurnTally {
  turns = 0;
  readonly usage: Usage = {};

  observe(event: WireEvent): void {
    if (event.event !== "turn_end") return;
    this.turns += 1;
    for (const [key, value] of Object.entries(event.usage ?? {}))
      if (typeof value === "number") {
        const field = key as keyof Usage;
        this.usage[field] = ((this.usage[field] as number | undefined) ?? 0) + value;
      }
  }
}

/**
 * The `result` line of a fleet run that ended or paused, in `--output-format json`'s shape:
 * `durationMs` counts from submission, `model` and `turns` are those of the attempt that ended it;
 * a paused run says which call waits for `yoake approve`.
 */
export function fleetRunSummary(run: RunRecord, sofar?: { turns: number; usage: Usage }): RunSummary {
  const result = run.result;
  const status = result?.status ?? (run.state === "paused" ? "paused" : "failed");
  const error =
    run.state === "paused"
      ? {
          kind: "paused",
          message: `the run waits for approval of ${run.permission?.tool} call ${run.permission?.callId} (yoake approve ${run.id} ${run.permission?.callId} allow|deny)`,
        }
      : result?.error !== undefined
        ? { kind: result.status, message: result.error }
        : undefined;
  return {
    event: "result",
    status,
    isError: status !== "finished",
    text: result?.answer ?? "",
    turns: result?.turns ?? sofar?.turns ?? 0,
    usage: fullUsage(result?.usage ?? sofar?.usage ?? {}),
    ...(result?.costUsd !== undefined && { costUsd: result.costUsd }),
    model: result?.model ?? run.spec.model ?? "",
    ...(run.sessionId !== undefined && { sessionId: run.sessionId }),
    durationMs: run.updatedAt.getTime() - run.createdAt.getTime(),
    ...(error !== undefined && { error }),
  };
}
