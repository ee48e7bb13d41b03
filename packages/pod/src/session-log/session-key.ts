/**
 * Where the key of the session-log chain lives, and why (design note).
 *
 * - A plain SHA-256 chain detects accidents, not tampering: whoever can edit a log can recompute
 *   it. Logs live in the project (`.yoake/sessions/`), which a cloned repository, a teammate or a
 *   process the user runs may write; `yoake --continue` would then feed the model a forged history.
 *   So every line carries an HMAC-SHA-256 keyed by a secret only the user holds.
 * - The secret is per user, not per project: `$XDG_STATE_HOME/yoake/session-key` (else
 *   `~/.local/state/yoake/session-key`), 32 random bytes, mode 0600, made on first use. Never in the
 *   project, so neither the model (whose scope is the project) nor a repository can read it.
 * - Consequence: a log verifies only for the user who wrote it, on the machine holding that key. A
 *   log copied to another machine or shared with someone else is refused there as unverifiable
 *   (the same error as a forged one: the two cannot be told apart without the key). To move
 *   sessions between one's own machines, copy the key file along with them (it is as sensitive as
 *   an SSH key); to share a session, export it as text — a keyed log is not a transport format.
 * - Deleting or replacing the key makes every existing log unverifiable; they stay readable as
 *   JSONL with any tool, but Yoake will not continue them.
 * - Not covered: a log cut back at a line boundary (dropping the newest entries) still verifies;
 *   only an anchor outside the file could catch that.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, mkdir, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { yoakeStateDir } from "../manifest/data-dir.js";
import { SessionKey } from "./chain.js";
import { SessionLogError } from "./session-log-error.js";

const KEY_FILE = "session-key";
const KEY_BYTES = 32;

/** The file holding the user's session key. */
export function sessionKeyPath(env: Readonly<Record<string, string | undefined>>): string {
  return join(yoakeStateDir(env), KEY_FILE);
}

/**
 * The user's session key, read from `sessionKeyPath(env)` or, the first time, created there. A key
 * file that is not a private regular file of 32 bytes is refused (`SessionLogError` of kind
 * `session_key`) rather than used or replaced: replacing it would orphan every log it signed.
 */
export async function loadSessionKey(env: Readonly<Record<string, string | undefined>>): Promise<SessionKey> {
  const path = sessionKeyPath(env);
  const existing = await readKey(path);
  if (existing !== undefined) return existing;
  await mkdir(yoakeStateDir(env), { recursive: true, mode: 0o700 });
  // Made whole under a private name, then linked into place: link(2) fails if another process got
  // there first, so two first runs at once agree on one key (rename would let the later one win and
  // orphan what the earlier one had already signed).
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const secret = randomBytes(KEY_BYTES);
  const file = await open(temporary, "wx", 0o600);
  try {
    await file.writeFile(secret);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const key = await readKey(path);
  if (key === undefined)
    throw new SessionLogError("session_key", path, "the session key vanished while it was made");
  return key;
}

async function readKey(path: string): Promise<SessionKey | undefined> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw refused(path, "is a symbolic link; it must be a regular file");
    throw error;
  }
  try {
    const info = await file.stat();
    if (!info.isFile()) throw refused(path, "is not a regular file");
    if (process.platform !== "win32") {
      if ((info.mode & 0o077) !== 0)
        throw refused(
          path,
          `is readable or writable by others (mode ${(info.mode & 0o777).toString(8)}): chmod 600 it`,
        );
      if (process.getuid !== undefined && info.uid !== process.getuid())
        throw refused(path, "belongs to another user");
    }
    const secret = await file.readFile();
    if (secret.length !== KEY_BYTES) throw refused(path, `holds ${secret.length} bytes, not ${KEY_BYTES}`);
    return SessionKey.fromBytes(secret);
  } finally {
    await file.close();
  }
}

function refused(path: string, why: string): SessionLogError {
  return new SessionLogError("session_key", path, `the session key ${why}`);
}
