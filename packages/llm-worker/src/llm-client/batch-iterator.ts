/**
 * An async iterator fed in batches: `pull` returns the next batch (possibly empty) or `undefined`
 * at the end. Items of a batch are handed out with no async machinery beyond the one promise per
 * `next()` that `for await` demands — nested async generators cost several microtask hops per item,
 * which dominates decoding a stream of 100,000 small deltas.
 */
export function batchIterator<T>(
  pull: () => Promise<readonly T[] | undefined>,
  release?: () => Promise<void>,
): AsyncIterableIterator<T> {
  let batch: readonly T[] = [];
  let at = 0;
  let ended = false;
  const end = async (): Promise<IteratorResult<T>> => {
    if (!ended) {
      ended = true;
      batch = [];
      await release?.();
    }
    return { value: undefined, done: true };
  };
  const refill = async (): Promise<IteratorResult<T>> => {
    try {
      for (;;) {
        const next = await pull();
        if (next === undefined) return end();
        if (next.length > 0) {
          batch = next;
          at = 1;
          return { value: next[0] as T, done: false };
        }
      }
    } catch (err) {
      await end();
      throw err;
    }
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () => {
      if (at < batch.length) return Promise.resolve({ value: batch[at++] as T, done: false });
      return ended ? Promise.resolve({ value: undefined, done: true }) : refill();
    },
    return: end,
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
