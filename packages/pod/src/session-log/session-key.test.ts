import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSessionKey, sessionKeyPath } from "./session-key.js";
import { SessionLogError } from "./session-log-error.js";

let base: string;
let env: Record<string, string>;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "yoake-session-key-"));
  env = { HOME: join(base, "home"), XDG_STATE_HOME: join(base, "state") };
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(): Promise<SessionLogError> {
  const error = await loadSessionKey(env).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SessionLogError);
  expect(error).toMatchObject({ kind: "session_key", path: sessionKeyPath(env) });
  return error as SessionLogError;
}

describe("the user's session key", () => {
  it("is made on first use in the state directory: 32 random bytes, mode 0600, the same ever after", async () => {
    expect(sessionKeyPath(env)).toBe(join(base, "state", "yoake", "session-key"));
    const first = await loadSessionKey(env);
    const file = await stat(sessionKeyPath(env));
    expect(file.size).toBe(32);
    expect(file.mode & 0o777).toBe(0o600);
    expect((await stat(join(base, "state", "yoake"))).mode & 0o077).toBe(0);
    const again = await loadSessionKey(env);
    expect(again.mac("line")).toBe(first.mac("line"));
    expect(JSON.stringify({ first })).not.toContain((await readFile(sessionKeyPath(env))).toString("hex"));
    // Without XDG_STATE_HOME: ~/.local/state, as the XDG spec says.
    expect(sessionKeyPath({ HOME: "/home/ada" })).toBe("/home/ada/.local/state/yoake/session-key");
  });

  it("is one key when many first uses race, and no temporary file is left", async () => {
    const keys = await Promise.all(Array.from({ length: 16 }, () => loadSessionKey(env)));
    expect(new Set(keys.map((key) => key.mac("line"))).size).toBe(1);
    expect(await readdir(join(base, "state", "yoake"))).toEqual(["session-key"]);
  });

  it("differs per user: another state directory makes another key", async () => {
    const mine = await loadSessionKey(env);
    const theirs = await loadSessionKey({ HOME: join(base, "other") });
    expect(theirs.mac("line")).not.toBe(mine.mac("line"));
  });

  it("is refused, never replaced, when others can read it, it is a link, or it is not 32 bytes", async () => {
    await loadSessionKey(env);
    const path = sessionKeyPath(env);
    const original = await readFile(path);
    await chmod(path, 0o644);
    expect((await refusal()).message).toContain("readable or writable by others (mode 644): chmod 600 it");
    expect(await readFile(path)).toEqual(original);

    await rm(path);
    await writeFile(path, "short", { mode: 0o600 });
    expect((await refusal()).message).toContain("holds 5 bytes, not 32");

    await rm(path);
    const elsewhere = join(base, "elsewhere");
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, "key"), original, { mode: 0o600 });
    await symlink(join(elsewhere, "key"), path);
    expect((await refusal()).message).toContain("is a symbolic link");
  });
});
