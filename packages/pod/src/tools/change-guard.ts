import type { ReadTracker } from "./read-tracker.js";

/**
 * Refuses to change an existing file the model has not read in this session, or one that has
 * changed since it read it, with a message that says what to do instead. `what` names the change
 * ("edit it", "replace it").
 */
export function requireFreshRead(
  tracker: ReadTracker,
  realPath: string,
  currentContent: Uint8Array,
  displayPath: string,
  what: string,
): void {
  const check = tracker.check(realPath, currentContent);
  if (check.ok) return;
  const quoted = JSON.stringify(displayPath);
  if (check.reason === "unread") {
    throw new Error(
      `${quoted} has not been read in this session: read it with read_file before you ${what}, so that you change what is really there`,
    );
  }
  throw new Error(
    `${quoted} has changed since you last read it (something else modified it): read it again with read_file before you ${what}`,
  );
}
