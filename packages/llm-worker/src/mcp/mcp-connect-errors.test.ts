/** A server that fails to start gives an error that says which server and why, and leaves no process. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../../test/support/mcp-test-servers.js";
import { McpConnectError } from "./mcp-connect-error.js";
import { connectMcp } from "./mcp-connection.js";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function connectError(...args: Parameters<typeof connectMcp>): Promise<McpConnectError> {
  try {
    const connection = await connectMcp(...args);
    await connection.close();
  } catch (err) {
    expect(err).toBeInstanceOf(McpConnectError);
    return err as McpConnectError;
  }
  throw new Error("connected, but it should not have");
}

describe("connectMcp: servers that fail to start", () => {
  it("names a command that does not exist", async () => {
    const err = await connectError({ name: "ghost", command: "yoake-no-such-mcp-server", args: ["--stdio"] });
    expect(err.kind).toBe("command_not_found");
    expect(err.server).toBe("ghost");
    expect(err.message).toBe(
      'MCP server "ghost" (yoake-no-such-mcp-server --stdio) failed to start: command not found: yoake-no-such-mcp-server',
    );
  });

  it("says a server exited at once, with the end of its stderr", async () => {
    const err = await connectError({
      name: "broken",
      command: process.execPath,
      args: [
        "-e",
        "console.error('starting'); console.error('error: GITHUB_TOKEN is not set'); process.exit(2)",
      ],
    });
    expect(err.kind).toBe("exited");
    expect(err.message).toMatch(/^MCP server "broken" \(.+\) exited before completing the MCP handshake; /);
    expect(err.message).toContain("  error: GITHUB_TOKEN is not set");
    expect(err.stderr).toContain("GITHUB_TOKEN");
  });

  it("gives up on a server that never answers after connectTimeoutMs, and stops it", async () => {
    const pidFile = join(await tempDir(), "pid");
    const started = Date.now();
    const err = await connectError({
      name: "silent",
      command: process.execPath,
      args: [
        "-e",
        `require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
      ],
      connectTimeoutMs: 500,
    });
    expect(err.kind).toBe("handshake_timeout");
    expect(err.message).toMatch(
      /^MCP server "silent" \(.+\) did not complete the MCP handshake within 500 ms$/,
    );
    expect(Date.now() - started).toBeLessThan(8000);
    // At once, not after the MCP client's own 2 s grace (which a CLI that exits would not wait for).
    const pid = Number(await readFile(pidFile, "utf8"));
    await eventually(() => !isRunning(pid), 1000);
  });

  it("names a script the runtime cannot find", async () => {
    const err = await connectError({ name: "typo", command: process.execPath, args: ["/nowhere/server.js"] });
    expect(err.kind).toBe("exited");
    expect(err.message).toContain("Cannot find module '/nowhere/server.js'");
  });

  it("passes the server's stderr to onStderr", async () => {
    const lines: string[] = [];
    await connectError({
      name: "chatty",
      command: process.execPath,
      args: ["-e", "console.error('hello from the server'); process.exit(1)"],
      onStderr: (text) => lines.push(text),
    });
    expect(lines.join("")).toContain("hello from the server");
  });

  it("refuses a working directory that does not exist before spawning anything", async () => {
    const err = await connectError({ name: "lost", command: process.execPath, cwd: "/nowhere/at/all" });
    expect(err.kind).toBe("invalid_config");
    expect(err.message).toBe('MCP server "lost": its working directory does not exist: /nowhere/at/all');
  });

  it("refuses a server name the providers' tool names cannot carry", async () => {
    for (const name of ["my.server", "", "x".repeat(33)]) {
      const err = await connectError({ name, command: "never-run" });
      expect(err.kind).toBe("invalid_config");
      expect(err.message).toContain("must be 1 to 32 of a-z A-Z 0-9 _ -");
    }
  });

  it("stops when the caller's signal aborts, and stops the server", async () => {
    const pidFile = join(await tempDir(), "pid");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const err = await connectError(
      { name: "slow", command: process.execPath, args: ["-e", writePidAndWait(pidFile)] },
      { signal: controller.signal },
    );
    expect(err.kind).toBe("aborted");
    expect(err.message).toMatch(/^MCP server "slow" \(.+\): connecting was cancelled$/);
    const pid = Number(await readFile(pidFile, "utf8"));
    await eventually(() => !isRunning(pid), 1000);
  });
});

/** A server that never answers: writes its pid to `file` and waits forever. */
function writePidAndWait(file: string): string {
  return `require("node:fs").writeFileSync(${JSON.stringify(file)}, String(process.pid)); setInterval(() => {}, 1000);`;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "yoake-mcp-silent-"));
  dirs.push(dir);
  return dir;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
