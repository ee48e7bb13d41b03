import { errorMessage } from "../llm-client/errors.js";
import { describeTarget, isHttpConfig, type McpServerConfig } from "./mcp-config.js";

/**
 * Why a server could not be connected:
 * - `invalid_config`: the configuration is wrong (a server name outside the charset, ...);
 * - `command_not_found`: the command does not exist (spawn `ENOENT`);
 * - `spawn_failed`: the command exists but could not be started (`EACCES`, ...);
 * - `exited`: the process ended before the handshake completed (its stderr says why);
 * - `handshake_timeout`: no complete handshake within `connectTimeoutMs`;
 * - `unreachable`: the HTTP server could not be reached (refused, DNS, TLS);
 * - `rejected`: the HTTP server answered with an error status;
 * - `handshake_failed`: anything else during the handshake or the first `tools/list`;
 * - `aborted`: the caller's signal ended the attempt.
 */
export type McpConnectErrorKind =
  | "invalid_config"
  | "command_not_found"
  | "spawn_failed"
  | "exited"
  | "handshake_timeout"
  | "unreachable"
  | "rejected"
  | "handshake_failed"
  | "aborted";

/** A server that failed to start or to complete the MCP handshake; the message says which and why. */
export class McpConnectError extends Error {
  override readonly name = "McpConnectError";
  readonly server: string;
  readonly kind: McpConnectErrorKind;
  /** The end of the server's stderr (stdio servers), where it explains itself. */
  readonly stderr: string;

  constructor(server: string, kind: McpConnectErrorKind, message: string, stderr = "", cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.server = server;
    this.kind = kind;
    this.stderr = stderr;
  }
}

/** A failure of the connect sequence, named for what went wrong and where. */
export function connectErrorOf(
  config: McpServerConfig,
  err: unknown,
  stderr: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): McpConnectError {
  const server = config.name;
  const target = describeTarget(config);
  const prefix = `MCP server "${server}" (${target})`;
  const said = stderr.trim().length > 0 ? `; ${describeStderr(stderr)}` : "";
  const code = errorCode(err);
  const make = (kind: McpConnectErrorKind, message: string): McpConnectError =>
    new McpConnectError(server, kind, message, stderr, err);

  if (signal?.aborted) return make("aborted", `${prefix}: connecting was cancelled`);
  if (code === "ENOENT" && syscallOf(err)?.startsWith("spawn")) {
    return make("command_not_found", `${prefix} failed to start: command not found: ${commandOf(config)}`);
  }
  if (syscallOf(err)?.startsWith("spawn")) {
    return make("spawn_failed", `${prefix} failed to start: ${errorMessage(err)}`);
  }
  if (code === "CONNECTION_CLOSED") {
    return make("exited", `${prefix} exited before completing the MCP handshake${said}`);
  }
  if (code === "REQUEST_TIMEOUT") {
    return make(
      "handshake_timeout",
      `${prefix} did not complete the MCP handshake within ${timeoutMs} ms${said}`,
    );
  }
  if (isHttpConfig(config)) {
    const status = httpStatusOf(err);
    if (status !== undefined)
      return make("rejected", `${prefix} answered HTTP ${status}: ${errorMessage(err)}`);
    if (err instanceof TypeError) {
      return make("unreachable", `${prefix} could not be reached: ${errorMessage(causeOf(err) ?? err)}`);
    }
  }
  return make("handshake_failed", `${prefix}: the MCP handshake failed: ${errorMessage(err)}${said}`);
}

function commandOf(config: McpServerConfig): string {
  return "command" in config ? config.command : "";
}

function errorCode(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

function syscallOf(err: unknown): string | undefined {
  const syscall =
    typeof err === "object" && err !== null ? (err as { syscall?: unknown }).syscall : undefined;
  return typeof syscall === "string" ? syscall : undefined;
}

function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const data = (err as { data?: unknown }).data;
  const status =
    typeof data === "object" && data !== null ? (data as { status?: unknown }).status : undefined;
  return typeof status === "number" ? status : undefined;
}

function causeOf(err: Error): unknown {
  return err.cause;
}

/** The last `count` non-empty lines, each indented, for a message. */
function lastLines(text: string, count: number): string {
  const lines = text.split("\n").filter((line) => line.trim().length > 0);
  return lines
    .slice(-count)
    .map((line) => `  ${line}`)
    .join("\n");
}

/**
 * What a server said before it went: the last lines of its stderr, and first its error line when
 * the tail does not hold it (a runtime's stack trace pushes `Error: Cannot find module …` out of
 * the last lines, by how many frames the runtime prints).
 */
function describeStderr(stderr: string): string {
  const tail = lastLines(stderr, 10);
  const errorLine = stderr.split("\n").find((line) => /^\s*(\w*Error\b|error:|fatal:)/i.test(line));
  const head =
    errorLine === undefined || tail.includes(errorLine) ? "" : `its stderr says:\n${errorLine.trim()}\n…and `;
  return `${head}its stderr ends with:\n${tail}`;
}
