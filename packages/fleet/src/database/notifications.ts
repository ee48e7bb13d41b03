import pg from "pg";

/** A connection listening on one channel (LISTEN needs a connection that stays open). */
export interface Listener {
  /**
   * Resolves at the next notification (or at once if one came while nobody waited), after
   * `timeoutMs`, or when the listener is closed, whichever comes first. Callers poll on the
   * timeout too: a notification lost with a dropped connection only delays them.
   */
  wait(timeoutMs: number): Promise<void>;
  /** Ends the connection and wakes every waiter. */
  close(): Promise<void>;
}

/** Listens on `channel` (one of our own constant names, not user input) of the database at `url`. */
export async function listenFor(url: string, channel: string): Promise<Listener> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const waiting = new Set<() => void>();
  let missed = false;
  let closed = false;
  const wakeAll = () => {
    if (waiting.size === 0) missed = true;
    for (const done of [...waiting]) done();
  };
  client.on("notification", wakeAll);
  client.on("error", wakeAll);
  await client.query(`LISTEN ${channel}`);
  return {
    wait: (timeoutMs) =>
      new Promise<void>((resolve) => {
        if (missed || closed) {
          missed = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        }
        waiting.add(done);
      }),
    async close() {
      closed = true;
      wakeAll();
      await client.end().catch(() => undefined);
    },
  };
}
