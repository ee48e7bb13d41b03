/** What `yoake` exits with. */
export const ExitCode = {
  /** The run finished. */
  ok: 0,
  /** The run failed or was cancelled (a provider error, the turn limit, a hook). */
  runFailed: 1,
  /** The command could not start: a bad option, a missing key, an invalid manifest. */
  usage: 2,
  /** Interrupted by Ctrl-C (128 + SIGINT), as shells report it. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * A failure the user can fix, reported as one `yoake: <message>` line on stderr (no stack
 * trace) with its exit code.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.usage,
  ) {
    super(message);
    this.name = "CliError";
  }
}
