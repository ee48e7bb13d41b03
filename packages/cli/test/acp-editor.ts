import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  type ClientConnection,
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";

// A test editor for acp.test.ts: an ACP client written with the SDK, driving a real `yoake acp`
// child process over its standard input and output, and helpers to read what it received.
const BIN = fileURLToPath(new URL("../bin/yoake.js", import.meta.url));

export type PermissionAnswer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

/** An editor: a client written with the ACP SDK, driving a real `yoake acp` child process. */
export interface Editor {
  connection: ClientConnection;
  /** Every `session/update`, in order. */
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  answerPermissions(answer: PermissionAnswer): void;
  /** Resolves once an update matching `accept` has arrived (at once if one did). */
  waitForUpdate(accept: (update: SessionUpdate) => boolean): Promise<SessionUpdate>;
  stderr(): string;
  /** Closes the agent's standard input; resolves with its exit code. */
  close(): Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];

/** Kills the agents a test left running (a failed assertion before `close`). */
export function killEditors(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
}

export function startEditor(cwd: string, env: Record<string, string | undefined>): Editor {
  const child = spawn(process.execPath, [BIN, "acp"], { cwd, env });
  children.push(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));

  const updates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const waiters: Array<{ accept: (update: SessionUpdate) => boolean; resolve: (u: SessionUpdate) => void }> =
    [];
  let answer: PermissionAnswer = () => ({ outcome: { outcome: "cancelled" } });

  const app = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
      for (const waiter of [...waiters])
        if (waiter.accept(params.update)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.update);
        }
    })
    .onRequest("session/request_permission", ({ params, signal }) => {
      permissionRequests.push(params);
      return answer(params, signal);
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  return {
    connection,
    updates,
    permissionRequests,
    answerPermissions: (next) => {
      answer = next;
    },
    waitForUpdate: (accept) => {
      const seen = updates.find((n) => accept(n.update));
      if (seen !== undefined) return Promise.resolve(seen.update);
      return new Promise((resolve) => waiters.push({ accept, resolve }));
    },
    stderr: () => stderr,
    close: async () => {
      child.stdin.end();
      return exited;
    },
  };
}

export async function initialize(editor: Editor) {
  return editor.connection.agent.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "test-editor", version: "1.0.0" },
  });
}

export const choose =
  (optionId: string): PermissionAnswer =>
  () => ({ outcome: { outcome: "selected", optionId } });

/** The updates of one session from index `from` on. */
export function updatesOf(editor: Editor, sessionId: string, from = 0): SessionUpdate[] {
  return editor.updates
    .slice(from)
    .filter((n) => n.sessionId === sessionId)
    .map((n) => n.update);
}

export function chunks(
  updates: SessionUpdate[],
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
) {
  return updates
    .map((u) => (u.sessionUpdate === kind && u.content.type === "text" ? u.content.text : ""))
    .join("");
}

/** The statuses one tool call went through: `tool_call` first, then each update that set one. */
export function statusesOf(updates: SessionUpdate[], toolCallId: string): string[] {
  const statuses: string[] = [];
  for (const u of updates) {
    if (
      (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
      u.toolCallId === toolCallId
    )
      if (u.status != null) statuses.push(u.status);
  }
  return statuses;
}

/** The last text content given to a tool call. */
export function contentOf(updates: SessionUpdate[], toolCallId: string): string {
  let text = "";
  for (const u of updates) {
    if (
      (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
      u.toolCallId === toolCallId
    )
      for (const c of u.content ?? [])
        if (c.type === "content" && c.content.type === "text") text = c.content.text;
  }
  return text;
}
