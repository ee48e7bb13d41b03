import type { FleetClient, RunRecord } from "@yoake/fleet";
import { ExitCode, type ExitCodeValue } from "./cli-error.js";
import { fullUsage, type RunSummary } from "./headless/run-summary.js";
import { wireEventLine } from "./headless/stream-event.js";
import type { CliIO } from "./io.js";

/**
 * `yoake submit --follow`: prints the run's events as `yoake -p --output-format stream-json`
 * prints them (the same encoder, the same shapes), from the stored events of every worker that
 * took the run, then the same `result` line. Exits 0 when the run finished or paused for approval.
 */
export async function followRun(client: FleetClient, id: string, io: CliIO): Promise<ExitCodeValue> {
  const run = await client.follow(id, (event) => io.stdout.write(wireEventLine(event)));
  io.stdout.write(`${JSON.stringify(fleetRunSummary(run))}\n`);
  return run.state === "finished" || run.state === "paused" ? ExitCode.ok : ExitCode.runFailed;
}

/**
 * The `result` line of a fleet run that ended or paused, in `--output-format json`'s shape:
 * `durationMs` counts from submission, `model` and `turns` are those of the attempt that ended it;
 * a paused run says which call waits for `yoake approve`.
 */
export function fleetRunSummary(run: RunRecord): RunSummary {
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
    turns: result?.turns ?? 0,
    usage: fullUsage(result?.usage ?? {}),
    ...(result?.costUsd !== undefined && { costUsd: result.costUsd }),
    model: result?.model ?? run.spec.model ?? "",
    ...(run.sessionId !== undefined && { sessionId: run.sessionId }),
    durationMs: run.updatedAt.getTime() - run.createdAt.getTime(),
    ...(error !== undefined && { error }),
  };
}
