/**
 * Session logs are the user's alone: a real Pod under the usual umask of 022 creates `.yoake/`
 * and `.yoake/sessions/` 0700 and its log 0600, and tightens what an older version left looser
 * when it resumes there, as long as the user owns it. Modes are read with fs.statSync.
 */
import { chmodSync, chownSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer } from "./support/pod-test-kit.js";
import { useSessionTestbed } from "./support/session-test-kit.js";

const bed = useSessionTestbed();
const modeOf = (file: string): number => statSync(file).mode & 0o7777;

let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});

describe("session logs", () => {
  it("are created 0600 in 0700 directories, whatever the umask lets through", async () => {
    const { open, mock, project, logPath } = bed();
    mock.enqueue(answer("hi"));
    const pod = await open();
    await pod.run("hello");
    await pod.close();
    expect(modeOf(path.join(project, ".yoake"))).toBe(0o700);
    expect(modeOf(path.join(project, ".yoake", "sessions"))).toBe(0o700);
    expect(modeOf(logPath(pod.sessionId))).toBe(0o600);
    // The umask really was the usual one: a file made without a mode is readable by others.
    writeFileSync(path.join(project, "plain.txt"), "x");
    expect(modeOf(path.join(project, "plain.txt"))).toBe(0o644);
  });

  it("tightens the looser modes an older version left, when the Pod starts and when it resumes", async () => {
    const { open, mock, project, logPath } = bed();
    mock.enqueue(answer("one"), answer("two"), answer("three"));
    const yoake = path.join(project, ".yoake");
    const sessions = path.join(yoake, "sessions");
    mkdirSync(sessions, { recursive: true, mode: 0o755 });
    chmodSync(yoake, 0o755);
    chmodSync(sessions, 0o775);
    const first = await open();
    await first.run("one");
    await first.close();
    expect([modeOf(yoake), modeOf(sessions)]).toEqual([0o700, 0o700]);

    // As an older version left them: resuming makes them owner-only again, the log too.
    chmodSync(yoake, 0o755);
    chmodSync(sessions, 0o777);
    chmodSync(logPath(first.sessionId), 0o644);
    const resumed = await open({ session: "latest" });
    expect(resumed.sessionId).toBe(first.sessionId);
    await resumed.run("two");
    await resumed.close();
    expect([modeOf(yoake), modeOf(sessions), modeOf(logPath(first.sessionId))]).toEqual([
      0o700, 0o700, 0o600,
    ]);
  });

  it("leaves the modes of a directory someone else owns as they are", async () => {
    const { open, mock, project } = bed();
    mock.enqueue(answer("hi"));
    const yoake = path.join(project, ".yoake");
    mkdirSync(path.join(yoake, "sessions"), { recursive: true });
    chmodSync(yoake, 0o755);
    // Another user's (nobody's) `.yoake`: chmod as root would succeed, the owner check stops it.
    chownSync(yoake, 65534, 65534);
    const pod = await open();
    await pod.run("hello");
    await pod.close();
    expect(modeOf(yoake)).toBe(0o755);
    expect(statSync(yoake).uid).toBe(65534);
    expect(modeOf(path.join(yoake, "sessions"))).toBe(0o700);
  });
});
