/** Caps on delegation, per parent Pod: how many children at once, in a session, and how deep. */
export interface TaskLimits {
  /** Children running at the same time; more wait for a slot. */
  maxRunning: number;
  /** Children one parent Pod may start in all (runaway delegation stops here). */
  maxPerSession: number;
  /** 1: children cannot start children. */
  maxDepth: number;
  /** A child's model requests, unless the call asks for fewer. */
  maxTurns: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = {
  maxRunning: 3,
  maxPerSession: 10,
  maxDepth: 1,
  maxTurns: 20,
};

/**
 * Counts children and hands out running slots in call order. A call counts against the session's
 * allowance only if its child started: one refused before (a model it may not use, a depth past
 * the limit, cancelled while it waited for a slot) gives its place back.
 */
export class TaskSlots {
  #started = 0;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly limits: TaskLimits) {}

  /**
   * Takes a slot (waiting for one), or throws when the session's allowance is spent. The returned
   * function gives the slot back; `started: false` gives the allowance back too.
   */
  async acquire(signal: AbortSignal): Promise<(started?: boolean) => void> {
    if (this.#started >= this.limits.maxPerSession)
      throw new Error(
        `this session already started ${this.limits.maxPerSession} sub-agents, the most it may; do the rest yourself`,
      );
    this.#started += 1;
    if (this.#running >= this.limits.maxRunning)
      await new Promise<void>((resolve, reject) => {
        const go = () => resolve();
        this.#waiting.push(go);
        signal.addEventListener(
          "abort",
          () => {
            const at = this.#waiting.indexOf(go);
            if (at >= 0) this.#waiting.splice(at, 1);
            this.#started -= 1;
            reject(signal.reason);
          },
          { once: true },
        );
      });
    this.#running += 1;
    let released = false;
    return (started = true) => {
      if (released) return;
      released = true;
      if (!started) this.#started -= 1;
      this.#running -= 1;
      this.#waiting.shift()?.();
    };
  }
}
