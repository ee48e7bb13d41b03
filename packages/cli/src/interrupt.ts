import { ExitCode } from "./cli-error.js";

/** Ctrl-C turned into an abort signal, for as long as a headless run goes. */
export interface Interrupt {
  readonly signal: AbortSignal;
  /** Gives Ctrl-C back its default meaning. */
  dispose(): void;
}

/** Starts listening for Ctrl-C; commands take one of these around the runs they print. */
export type InterruptSource = () => Interrupt;

/**
 * First Ctrl-C: abort the running turn, so the run ends `cancelled` with a consistent history
 * and the command exits 130. A second one exits at once. Only while a headless run goes: the
 * terminal UI reads Ctrl-C as a key, and before a run the default (exit) is what a person wants.
 */
export function interruptOnSigint(): Interrupt {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}
