import { open, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isBlobId } from "@yoake/llm-worker/internal";
import { type EntryBody, entryBodySchema, SESSION_LOG_VERSION } from "./entry.js";
import { scanLines } from "./line-reader.js";
import { ensurePrivateDirectory } from "./private-dir.js";
import {
  type OpenedSessionLog,
  SessionLog,
  type SessionLogOptions,
  type SessionStartInput,
} from "./session-log.js";
import { SessionLogError } from "./session-log-error.js";

/**
 * Where a project's session logs live, relative to its root: `.yoake/sessions/<id>.jsonl`, beside
 * the project manifest. Kept in the project (not an XDG state directory keyed by path) so that
 * moving or renaming the project keeps its history, and `ls` finds it; the default scope denies
 * the agent writes under `.yoake/`, so it cannot rewrite its own log. The directory gets a
 * `.gitignore` of `*` so logs are never committed by accident.
 */
export const SESSIONS_DIRECTORY = join(".yoake", "sessions");

const EXTENSION = ".jsonl";
const FIRST_TEXT_CHARS = 200;
const TYPE_KEY = Buffer.from(',"type":"');
const USER_INPUT = Buffer.from('user_input"');

/** One session log, as `listSessions` sees it (without verifying its chain). */
export interface SessionInfo {
  id: string;
  path: string;
  /** `ts` of line 1 (ISO 8601); empty when `problem` says line 1 is unreadable. */
  started: string;
  /** `ts` of the last complete line. */
  lastActivity: string;
  /** The first input the user submitted, cut at 200 characters. */
  firstUserText?: string;
  /** Complete lines (a torn tail is not counted). */
  entryCount: number;
  /** The session this one continues (it started from that one's compaction). */
  previous?: string;
  /** The session this one was compacted into. */
  next?: string;
  /** Bytes after the last newline: a crash mid-write; `open` will drop them. */
  tornTail: boolean;
  /**
   * Why line 1 or the last complete line could not be read: damage, which opening the log reports
   * with its line (the log is never cut back to hide it).
   */
  problem?: string;
}

/** The directory holding a project's session logs. */
export function sessionsDir(projectRoot: string): string {
  return join(projectRoot, SESSIONS_DIRECTORY);
}

/** Starts a new session log in the project (see `SessionLog.create`). */
export async function createSession(
  projectRoot: string,
  start: SessionStartInput,
  options: SessionLogOptions,
): Promise<SessionLog> {
  const dir = sessionsDir(projectRoot);
  // `.yoake` and `.yoake/sessions` owner-only, an older version's 0755 included.
  await ensurePrivateDirectory(dir);
  const log = await SessionLog.create(dir, start, options);
  await writeFile(join(dir, ".gitignore"), "*\n", { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  return log;
}

/**
 * The project's sessions, oldest first. Each log is scanned, not verified (opening one verifies
 * it): listing stays fast on long logs.
 */
export async function listSessions(projectRoot: string): Promise<SessionInfo[]> {
  const dir = sessionsDir(projectRoot);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const ids = names
    .filter((name) => name.endsWith(EXTENSION))
    .map((name) => name.slice(0, -EXTENSION.length))
    .filter((id) => isBlobId(id));
  const sessions = await Promise.all(ids.map((id) => describeSession(id, join(dir, `${id}${EXTENSION}`))));
  // A continuation names its predecessor; fill in the predecessor's `next` when its own last line does not.
  const byId = new Map(sessions.map((session) => [session.id, session]));
  for (const session of sessions) {
    const previous = session.previous === undefined ? undefined : byId.get(session.previous);
    if (previous !== undefined && previous.next === undefined) previous.next = session.id;
  }
  return sessions.sort((a, b) => compare(a.started, b.started) || compare(a.id, b.id));
}

/**
 * The session to resume by default: the one active most recently, then followed along its
 * `next` links to the newest continuation. A log whose first line is unreadable cannot be dated
 * and is passed over; one damaged further down still counts, so continuing it reports the damage
 * rather than silently picking an older session.
 */
export async function latestSession(projectRoot: string): Promise<SessionInfo | undefined> {
  return latestOf(await listSessions(projectRoot));
}

/** What `latestOf` and `matchSession` need of a listed session (any store's listing has it). */
export interface DatedSession {
  id: string;
  started: string;
  lastActivity: string;
  next?: string;
}

/** `latestSession`'s choice among listed sessions of any store. */
export function latestOf<T extends DatedSession>(listed: readonly T[]): T | undefined {
  const sessions = listed.filter((session) => session.started !== "");
  let latest: T | undefined;
  for (const session of sessions) {
    if (
      latest === undefined ||
      compare(session.lastActivity, latest.lastActivity) > 0 ||
      (session.lastActivity === latest.lastActivity && compare(session.id, latest.id) > 0)
    ) {
      latest = session;
    }
  }
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const seen = new Set<string>();
  while (latest?.next !== undefined && !seen.has(latest.id)) {
    seen.add(latest.id);
    const next = byId.get(latest.next);
    if (next === undefined) break;
    latest = next;
  }
  return latest;
}

/** The session whose id is `idOrPrefix` or starts with it; throws when none or several match. */
export async function findSession(projectRoot: string, idOrPrefix: string): Promise<SessionInfo> {
  return matchSession(await listSessions(projectRoot), idOrPrefix, sessionsDir(projectRoot));
}

/**
 * `findSession`'s choice among listed sessions of any store; `where` names the store in the
 * `not_found` / `ambiguous` error.
 */
export function matchSession<T extends DatedSession>(
  sessions: readonly T[],
  idOrPrefix: string,
  where: string,
): T {
  const wanted = idOrPrefix.toLowerCase();
  const exact = sessions.find((session) => session.id === wanted);
  if (exact !== undefined) return exact;
  const matches = sessions.filter((session) => session.id.startsWith(wanted));
  if (matches.length === 0) {
    throw new SessionLogError("not_found", where, `no session ${JSON.stringify(idOrPrefix)}`);
  }
  if (matches.length > 1) {
    const ids = matches.map((session) => session.id).join(", ");
    throw new SessionLogError(
      "ambiguous",
      where,
      `${JSON.stringify(idOrPrefix)} matches ${matches.length} sessions: ${ids}`,
    );
  }
  return matches[0] as T;
}

/** Opens a session for appending by id or id prefix, or the latest one (`"latest"`). */
export async function openSession(
  projectRoot: string,
  idOrPrefix: string | "latest",
  options: SessionLogOptions,
): Promise<OpenedSessionLog> {
  if (idOrPrefix === "latest") {
    const latest = await latestSession(projectRoot);
    if (latest === undefined)
      throw new SessionLogError("not_found", sessionsDir(projectRoot), "no sessions yet");
    return SessionLog.open(latest.path, options);
  }
  return SessionLog.open((await findSession(projectRoot, idOrPrefix)).path, options);
}

async function describeSession(id: string, path: string): Promise<SessionInfo> {
  let firstLine: Buffer | undefined;
  let firstUserLine: Buffer | undefined;
  // The last two complete lines: when the last is damaged, the one before dates the session.
  let last = { offset: 0, length: 0 };
  let beforeLast = last;
  const scan = await scanLines(path, (line, lineNumber, offset) => {
    beforeLast = last;
    last = { offset, length: line.length };
    if (lineNumber === 1) firstLine = Buffer.from(line);
    else if (firstUserLine === undefined && isUserInput(line)) firstUserLine = Buffer.from(line);
  });
  const info: SessionInfo = {
    id,
    path,
    started: "",
    lastActivity: "",
    entryCount: scan.lines,
    tornTail: scan.tailBytes > 0,
  };
  const first = parseStart(firstLine);
  if (first === undefined) return { ...info, problem: "line 1 is not a session_start entry" };
  const { start, version } = first;
  // An older format is still dated, so `--continue` reaches it and says why it cannot go on.
  if (version !== SESSION_LOG_VERSION) info.problem = `log format version ${JSON.stringify(version)}`;
  info.started = start.ts;
  info.lastActivity = start.ts;
  if (start.previous !== undefined) info.previous = start.previous.sessionId;
  const user = parseLine(firstUserLine);
  if (user?.type === "user_input") info.firstUserText = cut(user.text);
  if (scan.lines > 1) {
    let end = parseLine(await readRange(path, last.offset, last.length));
    if (end === undefined) {
      // A complete line is damage, not a torn write: listed with its problem (opening it refuses),
      // and dated by the line before so `latestSession` still sees it as the latest.
      info.problem = `line ${scan.lines} is not a valid entry`;
      end = scan.lines === 2 ? start : parseLine(await readRange(path, beforeLast.offset, beforeLast.length));
      if (end === undefined) return info;
    }
    info.lastActivity = end.ts;
    if (end.type === "compaction" && end.sessionId !== id) info.next = end.sessionId;
  }
  return info;
}

/**
 * Whether a line is a `user_input` entry, without parsing it: the writer puts `seq`, `ts` and
 * `prev` (which hold no such text) before the entry's own `type`, so its first `,"type":"` is that.
 */
function isUserInput(line: Buffer): boolean {
  const at = line.indexOf(TYPE_KEY);
  return (
    at !== -1 &&
    line.subarray(at + TYPE_KEY.length, at + TYPE_KEY.length + USER_INPUT.length).equals(USER_INPUT)
  );
}

type ParsedLine = EntryBody & { ts: string };

function parseLine(line: Buffer | undefined): ParsedLine | undefined {
  const json = parseJson(line);
  return json === undefined ? undefined : entryOf(json);
}

/** Line 1 as a `session_start` of whatever format version it has, and that version. */
function parseStart(
  line: Buffer | undefined,
): { start: Extract<ParsedLine, { type: "session_start" }>; version: unknown } | undefined {
  const json = parseJson(line);
  if (json === undefined) return undefined;
  const start = entryOf({ ...json, version: SESSION_LOG_VERSION });
  return start?.type === "session_start" ? { start, version: json.version } : undefined;
}

function entryOf(json: Record<string, unknown>): ParsedLine | undefined {
  const body = entryBodySchema.safeParse(json);
  return body.success && typeof json.ts === "string" ? { ...body.data, ts: json.ts } : undefined;
}

function parseJson(line: Buffer | undefined): Record<string, unknown> | undefined {
  if (line === undefined) return undefined;
  try {
    const json: unknown = JSON.parse(line.toString("utf8"));
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function readRange(path: string, offset: number, length: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, offset);
    return buffer;
  } finally {
    await handle.close();
  }
}

function cut(text: string): string {
  return text.length <= FIRST_TEXT_CHARS ? text : `${text.slice(0, FIRST_TEXT_CHARS)}…`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
