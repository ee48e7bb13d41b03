import { ndJsonStream } from "@agentclientprotocol/sdk";
import { loadManifest, ProjectTrustError } from "@yoake/pod";
import { CliError, ExitCode, type ExitCodeValue } from "../cli-error.js";
import type { CliIO, InputStream, OutputStream } from "../io.js";
import { PACKAGE_VERSION } from "../package-files.js";
import { untrustedManifestLine } from "../project-trust.js";
import { YoakeAgent } from "./agent.js";

/** What `yoake acp` talks over, and the environment its Pods are made with. */
export interface AcpIO {
  /** The client's messages, newline-delimited JSON-RPC. */
  stdin: InputStream;
  /** The agent's messages; nothing else may be written here. */
  stdout: OutputStream;
  /** The agent's log. */
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborting it ends the connection (Ctrl-C). */
  signal?: AbortSignal;
  /** False (`--no-attach`): sessions never attach to a Pod `yoake serve` runs. */
  attach?: boolean;
}

/**
 * Before `yoake acp` serves anything: the project it was started in must not have a manifest the
 * user has not trusted (an editor cannot show what it asks for), else a `CliError` (exit 2, one
 * line). `--trust-project` trusts it and remembers that; sessions in other untrusted projects are
 * refused one by one with the same line. Other manifest problems are each session's to report.
 */
export async function settleAcpProjectTrust(io: CliIO, trustProject: boolean): Promise<void> {
  try {
    await loadManifest({ cwd: io.cwd, env: io.env, projectTrust: trustProject ? "trust" : "refuse" });
  } catch (error) {
    if (error instanceof ProjectTrustError) throw new CliError(untrustedManifestLine(error));
  }
}

/**
 * `yoake acp`: serves the Agent Client Protocol over standard input and output until the client
 * closes standard input (or `signal` aborts), then cancels the turns still going and closes every
 * session's log. Returns 0, or 130 when interrupted.
 */
export async function runAcp(io: AcpIO): Promise<ExitCodeValue> {
  // Anything printed by accident would corrupt the protocol stream: console output is the log.
  const restoreConsole = consoleToLog(io.stderr);
  const yoake = new YoakeAgent({
    env: io.env,
    version: PACKAGE_VERSION,
    log: (line) => io.stderr.write(line),
    ...(io.attach !== undefined && { attach: io.attach }),
  });
  const connection = yoake.app.connect(ndJsonStream(writableTo(io.stdout), readableFrom(io.stdin)));
  const interrupt = (): void => connection.close(new Error("interrupted"));
  io.signal?.addEventListener("abort", interrupt, { once: true });
  try {
    await connection.closed.catch(() => undefined);
    await yoake.closeAll();
  } finally {
    io.signal?.removeEventListener("abort", interrupt);
    restoreConsole();
  }
  return io.signal?.aborted === true ? ExitCode.interrupted : ExitCode.ok;
}

function readableFrom(input: InputStream): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = input[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done === true) controller.close();
      else controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function writableTo(output: OutputStream): WritableStream<Uint8Array> {
  // `stream: true` keeps a character that a chunk boundary splits whole.
  const decoder = new TextDecoder();
  return new WritableStream<Uint8Array>({
    write(chunk) {
      output.write(decoder.decode(chunk, { stream: true }));
    },
  });
}

function consoleToLog(log: OutputStream): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const write = (...args: unknown[]): void => {
    log.write(`${args.map((arg) => (typeof arg === "string" ? arg : String(arg))).join(" ")}\n`);
  };
  console.log = write;
  console.info = write;
  console.debug = write;
  return () => {
    console.log = saved.log;
    console.info = saved.info;
    console.debug = saved.debug;
  };
}
