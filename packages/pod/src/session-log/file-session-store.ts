import { join } from "node:path";
import { isBlobId } from "@yoake/llm-worker/internal";
import type { LogEntry, SessionConfig } from "./entry.js";
import { linkContinuation } from "./link.js";
import { tightenPrivateDirectory } from "./private-dir.js";
import { readSessionLog } from "./read.js";
import { SessionLog, type SessionLogOptions, type SessionStartInput } from "./session-log.js";
import { SessionLogError } from "./session-log-error.js";
import type { OpenedStoredSession, SessionStore, StoredSessionInfo } from "./session-store.js";
import type { SessionWriter } from "./session-writer.js";
import { createSession, listSessions, sessionsDir } from "./sessions.js";

/**
 * The `SessionStore` of one project's `.yoake/sessions/<id>.jsonl` files: `SessionLog` and its
 * readers behind the common interface. Its lock is the `<log>.lock` file (one writer per machine);
 * use a database store when sessions move between machines.
 */
export class FileSessionStore implements SessionStore {
  constructor(
    readonly projectRoot: string,
    readonly options: SessionLogOptions,
  ) {}

  get location(): string {
    return sessionsDir(this.projectRoot);
  }

  create(start: SessionStartInput): Promise<SessionWriter> {
    return createSession(this.projectRoot, start, this.options);
  }

  async open(id: string): Promise<OpenedStoredSession> {
    const path = this.#path(id);
    // Resuming a session an older version logged tightens its directories (see `createSession`).
    await tightenPrivateDirectory(sessionsDir(this.projectRoot));
    const { log, contents } = await SessionLog.open(path, this.options).catch(missing(path, id));
    return { writer: log, entries: contents.entries, warnings: contents.warnings };
  }

  async read(id: string, fromSeq = 1): Promise<LogEntry[]> {
    const path = this.#path(id);
    const { entries } = await readSessionLog(path, this.options.key).catch(missing(path, id));
    return entries.filter((entry) => entry.seq >= fromSeq);
  }

  async list(): Promise<StoredSessionInfo[]> {
    return (await listSessions(this.projectRoot)).map(({ path: _path, tornTail: _torn, ...info }) => info);
  }

  link(previous: SessionWriter, summary: string, config: SessionConfig): Promise<SessionWriter> {
    return linkContinuation(previous, summary, config, (start) => this.create(start));
  }

  async close(): Promise<void> {
    // Nothing held: each writer holds its own file and lock.
  }

  #path(id: string): string {
    const dir = sessionsDir(this.projectRoot);
    // Session ids are UUIDs; anything else could name a path outside the directory.
    if (!isBlobId(id)) throw new SessionLogError("not_found", dir, `no session ${JSON.stringify(id)}`);
    return join(dir, `${id}.jsonl`);
  }
}

function missing(path: string, id: string): (error: unknown) => never {
  return (error) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new SessionLogError("not_found", path, `no session ${id}`, undefined, { cause: error });
    throw error;
  };
}
