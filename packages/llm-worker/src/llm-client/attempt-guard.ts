import { abortedError, LlmError } from "./errors.js";

/**
 * One attempt's abort wiring and clocks. One timer per phase, re-armed with `refresh()` when a wait
 * starts after progress, so reading a chunk costs no timer allocation; and one deadline for the
 * whole attempt.
 */
export class AttemptGuard {
  failure: LlmError | undefined;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly deadline: ReturnType<typeof setTimeout> | undefined;
  private clockMessage = "";
  private waiting = false;
  /** The last chunk was progress (the default): the next wait restarts the clock. */
  private progressed = true;
  /** The clock ran out while the consumer held a keep-alive chunk: the next wait fails at once. */
  private expired = false;
  private released = false;
  private readonly onAbort = (): void => this.fail(abortedError(this.external?.reason));

  constructor(
    private readonly external: AbortSignal | undefined,
    attemptTimeoutMs: number,
  ) {
    external?.addEventListener("abort", this.onAbort, { once: true });
    if (isTimerDelay(attemptTimeoutMs)) {
      const message = `the attempt took longer than its deadline of ${attemptTimeoutMs} ms`;
      this.deadline = setTimeout(
        () => this.fail(new LlmError({ kind: "timeout", message })),
        attemptTimeoutMs,
      );
      this.deadline.unref();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  fail(error: LlmError): void {
    if (this.failure) return;
    this.failure = error;
    this.controller.abort(error);
  }

  /** A clock of `ms` (0 = none) for each later wait; expiring during a wait fails with kind `timeout`. */
  setClock(ms: number, message: string): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.expired = false;
    this.clockMessage = message;
    if (this.released || !isTimerDelay(ms)) return;
    this.timer = setTimeout(() => {
      if (this.waiting) this.failClock();
      else this.expired = true;
    }, ms);
    this.timer.unref();
  }

  markKeepAlive(): void {
    this.progressed = false;
  }

  beginWait(): void {
    this.waiting = true;
    if (this.progressed) {
      this.expired = false;
      this.timer?.refresh();
    } else if (this.expired) {
      this.failClock();
    }
    this.progressed = true;
  }

  endWait(): void {
    this.waiting = false;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
    this.external?.removeEventListener("abort", this.onAbort);
  }

  private failClock(): void {
    this.fail(new LlmError({ kind: "timeout", message: this.clockMessage }));
  }
}

/** A delay `setTimeout` honours; 0 (and nonsense) means no clock. */
function isTimerDelay(ms: number): boolean {
  return ms > 0 && ms <= 2_147_483_647;
}
