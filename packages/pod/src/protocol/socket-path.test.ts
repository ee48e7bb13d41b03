/**
 * Where a Pod's socket lives and how it is claimed: the runtime directory, private permissions,
 * a stale socket file (its Pod was killed) replaced, a live Pod never displaced.
 */
import { spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { usePodTestbed } from "../../test/support/pod-test-kit.js";
import { connectPod } from "./client.js";
import { servePod } from "./server.js";
import {
  checkPrivateSocket,
  ForeignSocketError,
  findServedPod,
  podSocketPath,
  SocketInUseError,
} from "./socket-path.js";

const bed = usePodTestbed();

/** A socket file with nobody behind it: a process that listened on it and was killed. */
async function leaveStaleSocket(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, [
    "-e",
    `require("node:net").createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, "SIGKILL"))`,
  ]);
  await new Promise((resolve) => child.once("exit", resolve));
  expect(lstatSync(socketPath).isSocket()).toBe(true);
}

describe("podSocketPath", () => {
  it("is in $XDG_RUNTIME_DIR/yoake, one per project root, short", () => {
    const one = podSocketPath("/home/me/project", { XDG_RUNTIME_DIR: "/run/user/1000" });
    expect(one).toMatch(/^\/run\/user\/1000\/yoake\/[0-9a-f]{16}\.sock$/);
    expect(podSocketPath("/home/me/project", { XDG_RUNTIME_DIR: "/run/user/1000" })).toBe(one);
    expect(podSocketPath("/home/me/other", { XDG_RUNTIME_DIR: "/run/user/1000" })).not.toBe(one);
  });

  it("falls back to Yoake's state directory, private to the user, not to a shared directory", () => {
    const socketPath = podSocketPath("/home/me/project", { HOME: "/home/me" });
    expect(socketPath).toMatch(/^\/home\/me\/\.local\/state\/yoake\/run\/[0-9a-f]{16}\.sock$/);
  });

  it("uses a per-user directory in the temporary directory only when the state path is too long for a socket", () => {
    const socketPath = podSocketPath("/p", { XDG_STATE_HOME: `/${"x".repeat(120)}` });
    expect(path.dirname(socketPath)).toBe(path.join(tmpdir(), `yoake-${userInfo().uid}`));
  });
});

describe("a socket another user could have made", () => {
  /** A listener that counts who connects: what a squatter would run. */
  async function squat(socketPath: string): Promise<{ connections: () => number; close: () => void }> {
    let count = 0;
    const server = createServer((socket) => {
      count++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return { connections: () => count, close: () => server.close() };
  }

  it("is refused by the client when its directory others may enter, before anything is sent", async () => {
    const { base } = bed();
    const dir = path.join(base, "shared");
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const socketPath = path.join(dir, "p.sock");
    const squatter = await squat(socketPath);
    try {
      await expect(connectPod(socketPath)).rejects.toThrow(ForeignSocketError);
      await expect(connectPod(socketPath)).rejects.toThrow(/other users can enter/);
      expect(squatter.connections()).toBe(0);
    } finally {
      squatter.close();
    }
  });

  it.runIf(process.getuid?.() === 0)(
    "is refused by the client, by findServedPod and by the server when it belongs to another user",
    async () => {
      const { base, project, createPod } = bed();
      const env = { XDG_RUNTIME_DIR: path.join(base, "run") };
      const socketPath = podSocketPath(project, env);
      // Another user made the directory first, privately, and listens there.
      mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
      const squatter = await squat(socketPath);
      chownSync(path.dirname(socketPath), 4242, 4242);
      chownSync(socketPath, 4242, 4242);
      try {
        await expect(connectPod(socketPath)).rejects.toThrow(/belongs to another user/);
        await expect(findServedPod(project, env)).rejects.toThrow(ForeignSocketError);
        await expect(servePod(await createPod(), { env })).rejects.toThrow(/belongs to another user/);
        expect(squatter.connections()).toBe(0);
      } finally {
        squatter.close();
      }
    },
  );

  it("a socket file of its own in a private directory is accepted", async () => {
    const { base } = bed();
    const dir = path.join(base, "mine");
    mkdirSync(dir, { mode: 0o700 });
    const socketPath = path.join(dir, "p.sock");
    const listener = await squat(socketPath);
    try {
      await expect(checkPrivateSocket(socketPath)).resolves.toBeUndefined();
    } finally {
      listener.close();
    }
  });
});

describe("servePod's socket", () => {
  it("defaults to the project's path in the runtime directory, private, and is removed at shutdown", async () => {
    const { createPod, base, project } = bed();
    const env = { XDG_RUNTIME_DIR: path.join(base, "run") };
    const server = await servePod(await createPod(), { env });
    const socketPath = podSocketPath(project, env);
    expect(server.socketPath).toBe(socketPath);
    expect(lstatSync(socketPath).mode & 0o777).toBe(0o600);
    expect(lstatSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
    const client = await connectPod(socketPath);
    expect(client.hello.projectRoot).toBe(project);
    await server.shutdown();
    expect(existsSync(socketPath)).toBe(false);
  });

  it("tightens a runtime directory others could enter", async () => {
    const { createPod, base } = bed();
    const dir = path.join(base, "run", "yoake");
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const server = await servePod(await createPod(), { socketPath: path.join(dir, "p.sock") });
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    await server.shutdown();
  });

  it("replaces a stale socket file left by a Pod that died", async () => {
    const { createPod, base } = bed();
    const socketPath = path.join(base, "stale.sock");
    await leaveStaleSocket(socketPath);
    const server = await servePod(await createPod(), { socketPath });
    const client = await connectPod(socketPath);
    expect((await client.status()).state).toBe("idle");
    await server.shutdown();
  });

  it("never displaces a live Pod, and never removes a file that is not a socket", async () => {
    const { createPod, base } = bed();
    const socketPath = path.join(base, "live.sock");
    const first = await servePod(await createPod(), { socketPath });
    const second = servePod(await createPod(), { socketPath });
    await expect(second).rejects.toThrow(SocketInUseError);
    await expect(second).rejects.toThrow(`a Pod is already serving on ${socketPath}`);
    expect((await (await connectPod(socketPath)).status()).clients).toBe(1);
    await first.shutdown();

    const notASocket = path.join(base, "notes.txt");
    writeFileSync(notASocket, "keep me");
    await expect(servePod(await createPod(), { socketPath: notASocket })).rejects.toThrow(
      `${notASocket} exists and is not a socket`,
    );
    expect(readFileSync(notASocket, "utf8")).toBe("keep me");
  });
});
