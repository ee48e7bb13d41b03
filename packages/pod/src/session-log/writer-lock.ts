import { open, readFile, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { SessionLogError } from "./session-log-error.js";

/** Logs this process holds open for appending (a second writer here would fork the chain too). */
const heldHere = new Set<string>();

/** The right to append to one log, until released. */
export interface WriterLock {
  release(): Promise<void>;
}

/**
 * Takes the single-writer lock of a log: `<log>.lock`, created exclusively, holding the writer's
 * pid. Two writers would each extend the chain from the same last hash and fork it, so a second
 * one is refused while the first lives. A lock whose pid is gone (a crashed Pod) is stale and taken
 * over. Node has no `flock`; two processes taking over the same stale lock at the same instant could
 * both succeed — a window of microseconds after a crash, accepted here.
 */
export async function acquireWriterLock(logPath: string): Promise<WriterLock> {
  const key = resolve(logPath);
  if (heldHere.has(key)) {
    throw new SessionLogError("locked", logPath, "already open for appending in this process");
  }
  const lockPath = `${logPath}.lock`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
    }
    const holder = await lockHolder(lockPath);
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
      throw new SessionLogError("locked", logPath, `process ${holder} is appending to it (${lockPath})`);
    }
    await unlink(lockPath).catch(ignoreMissing);
  }
  heldHere.add(key);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(key);
      await unlink(lockPath).catch(ignoreMissing);
    },
  };
}

async function lockHolder(lockPath: string): Promise<number | undefined> {
  const text = await readFile(lockPath, "utf8").catch(() => "");
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}
