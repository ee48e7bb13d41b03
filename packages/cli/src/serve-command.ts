import path from "node:path";
import { findServedPod, projectSocketPath, SocketInUseError, servePod } from "@yoake/pod/protocol";
import { CliError, ExitCode, type ExitCodeValue } from "./cli-error.js";
import type { CliIO } from "./io.js";
import { checkWorkingDirectory, commandPodOptions, type PodShapingOptions } from "./pod-options.js";
import { openPodWithTrust } from "./project-trust.js";

/** The options of `yoake serve`, parsed. */
export interface ServeCommandOptions extends PodShapingOptions {
  cwd?: string;
}

/**
 * `yoake serve`: a Pod on the project around `--cwd`, kept warm behind the project's socket (see
 * `projectSocketPath`) until `stop` aborts (Ctrl-C, SIGTERM) or a client asks it to shut down.
 * `yoake`, `yoake -p` and `yoake acp` started in the project attach to it, so a run goes on when
 * the terminal that started it closes, and several clients watch the same Pod.
 *
 * The project's trust is settled here, as for `-p`: a manifest the user has not trusted stops the
 * start (one line, exit 2) unless `--trust-project`. Clients attach to the Pod as it was started.
 * What the Pod warns about as it starts (no sandbox, a model not in the catalogue) is printed
 * here, as `yoake` prints it, and every client attaching is told again (`hello`).
 */
export async function serveCommand(
  options: ServeCommandOptions,
  io: CliIO,
  stop?: AbortSignal,
): Promise<ExitCodeValue> {
  const cwd = path.resolve(io.cwd, options.cwd ?? ".");
  if (options.cwd !== undefined) checkWorkingDirectory(options.cwd, cwd);
  const socketPath = await projectSocketPath(cwd, io.env);
  // Before the Pod opens: a second server must not open the session log the first one writes.
  if ((await findServedPod(cwd, io.env)) !== undefined) throw inUse(socketPath);
  const { pod } = await openPodWithTrust(commandPodOptions(cwd, io.env, options));
  const server = await servePod(pod, { socketPath, env: io.env }).catch(async (error: unknown) => {
    await pod.close();
    throw error instanceof SocketInUseError ? inUse(socketPath) : error;
  });
  // A continued session's own warnings (a run a crash interrupted) too: nobody else is told them.
  for (const warning of [...pod.manifest.warnings, ...(pod.restored?.warnings ?? [])])
    io.stderr.write(`yoake: warning: ${warning}\n`);
  io.stdout.write(
    `yoake: serving ${pod.manifest.projectRoot} on ${socketPath}\n` +
      "yoake: yoake, yoake -p and yoake acp in this project attach to it; Ctrl-C stops it\n",
  );
  const stopped = (): void => void server.shutdown("yoake serve was stopped");
  if (stop?.aborted === true) stopped();
  stop?.addEventListener("abort", stopped, { once: true });
  try {
    await server.closed;
  } finally {
    stop?.removeEventListener("abort", stopped);
  }
  return ExitCode.ok;
}

/**
 * Ctrl-C and SIGTERM stop the server (the run going is cancelled, clients are told). SIGHUP, the
 * terminal closing, does not: a served Pod outlives the terminal it was started from.
 */
export function stopOnSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  const ignore = (): void => undefined;
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.on("SIGHUP", ignore);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      process.off("SIGHUP", ignore);
    },
  };
}

function inUse(socketPath: string): CliError {
  return new CliError(`a Pod already serves this project on ${socketPath}: attach to it with yoake`);
}
