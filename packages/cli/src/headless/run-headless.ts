import type { OutputSchema } from "@yoake/llm-worker";
import { type Pod, type PodRunResult, RunCostMeter } from "@yoake/pod";
import { ExitCode, type ExitCodeValue } from "../cli-error.js";
import type { CliIO } from "../io.js";
import type { OutputFormat } from "./output-format.js";
import { reportProgress } from "./progress.js";
import { type DeniedCall, failureOf, runSummary } from "./run-summary.js";
import { streamEventLine } from "./stream-event.js";

export interface HeadlessOptions {
  prompt: string;
  format: OutputFormat;
  /**
   * Ask for the answer as JSON of this schema: `text` then prints the validated object, `json`
   * puts it in the result's `structured_output`; an answer that does not validate fails the run.
   */
  output?: OutputSchema<unknown>;
  /**
   * Whether calls that need approval were approved up front (`--yes`, which empties
   * `tools.approve`). Without it, such calls are denied: nobody is there to ask.
   */
  approveAll: boolean;
  /** A W3C `traceparent` (the `TRACEPARENT` variable): the run's spans continue that trace. */
  traceparent?: string;
  /** Tool calls and info alerts on stderr. */
  verbose: boolean;
  signal?: AbortSignal;
}

/**
 * One headless run: submits the prompt (its `@path` references resolved by the Pod), answers
 * every permission request with a denial that tells the model why, and prints the outcome in
 * `format`. Returns the exit code: 0 finished, 1 failed or cancelled (the error on stderr).
 */
export async function runHeadless(pod: Pod, options: HeadlessOptions, io: CliIO): Promise<ExitCodeValue> {
  const started = Date.now();
  const denied: DeniedCall[] = [];
  const stopProgress = reportProgress(pod, io.stderr, {
    tools: options.verbose || io.stderr.isTTY === true,
    retries: options.verbose || io.stderr.isTTY === true,
    info: options.verbose,
  });
  const history = () => pod.history;
  const cost = new RunCostMeter(pod.manifest.model);
  const stopMeter = pod.listen(cost.observe);
  const stopStream =
    options.format === "stream-json"
      ? pod.listen((event) => {
          const line = streamEventLine(event, history);
          if (line !== undefined) io.stdout.write(line);
        })
      : undefined;
  const runOptions = {
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.output !== undefined && { output: options.output }),
    ...(options.traceparent !== undefined && { traceparent: options.traceparent }),
  };
  let result: PodRunResult;
  try {
    result = await pod.run(options.prompt, runOptions);
    while (result.status === "paused" && result.permissionRequest !== undefined) {
      const request = result.permissionRequest;
      const reason = `${request.tool} needs the user's approval, which cannot be asked in headless mode; rerun with --yes to allow it`;
      // A command says why it asks: no sandbox, or an always-ask pattern.
      const why = request.command === undefined ? "" : `; ${request.command.reason}`;
      io.stderr.write(
        `yoake: denied ${request.tool}: it needs approval${why} (rerun with --yes to allow it)\n`,
      );
      denied.push({ tool: request.tool, callId: request.callId, reason });
      result = await pod.respond(request.id, { deny: reason }, runOptions);
    }
  } finally {
    stopStream?.();
    stopMeter();
    stopProgress();
  }

  const summary = runSummary(result, {
    manifest: pod.manifest,
    durationMs: Date.now() - started,
    deniedCalls: denied,
    sessionId: pod.sessionId,
    costUsd: cost.costUsd,
  });
  if (options.format === "text") {
    if (result.status === "finished")
      io.stdout.write(options.output ? `${JSON.stringify(result.output)}\n` : withNewline(result.text));
  } else {
    io.stdout.write(`${JSON.stringify(summary)}\n`);
  }
  const failure = failureOf(result);
  if (failure === undefined) return ExitCode.ok;
  io.stderr.write(`yoake: ${failure.message}\n`);
  return options.signal?.aborted === true ? ExitCode.interrupted : ExitCode.runFailed;
}

function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
