/**
 * Turns a listener registration into an async iterable: values queue while the consumer is busy,
 * so none is lost; stopping the iteration unsubscribes. It ends after a value for which `until`
 * is true, or when `ended` settles.
 */
export function listenerIterator<T>(
  subscribe: (push: (value: T) => void) => () => void,
  options: { until?: (value: T) => boolean; ended?: Promise<unknown> } = {},
): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    unsubscribe();
    wake?.();
  };
  const unsubscribe = subscribe((value) => {
    if (finished) return;
    queue.push(value);
    if (options.until?.(value)) finish();
    wake?.();
  });
  void options.ended?.then(finish, finish);
  const iterator: AsyncIterableIterator<T> = {
    next: async () => {
      while (queue.length === 0) {
        if (finished) return { value: undefined, done: true };
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      return { value: queue.shift() as T, done: false };
    },
    return: async () => {
      finish();
      queue.length = 0;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
