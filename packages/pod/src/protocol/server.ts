import { unlink } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import type { Readable, Writable } from "node:stream";
import { PodProtocolServer, type ProtocolServerOptions } from "./protocol-server.js";
import type { ServedPod } from "./served-pod.js";
import { podSocketPath, prepareSocketPath, restrictSocket } from "./socket-path.js";

/** A Pod being served: stop it with `shutdown`, or wait for a client to (`closed`). */
export interface PodServer {
  /** The socket file (absent when serving over standard input and output). */
  readonly socketPath?: string;
  /** Clients that completed `hello` and are still connected. */
  readonly clientCount: number;
  /** Cancels the run, tells every client (`shutdown` event), closes every connection and the socket. */
  shutdown(reason?: string): Promise<void>;
  /** Settles once the server has shut down, whoever asked. */
  readonly closed: Promise<void>;
}

export interface ServePodOptions extends ProtocolServerOptions {
  /** Defaults to `podSocketPath(<the Pod's project root>, env)`. */
  socketPath?: string;
  /** For `XDG_RUNTIME_DIR` in the default socket path; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Serves a Pod on a Unix domain socket (JSON lines, see `messages.ts`), for any number of clients
 * at once. The socket's directory is private (0700) and the socket 0600; a socket file left by a
 * Pod that died is replaced, while a live Pod on the same path is an error (`SocketInUseError`).
 * Shutting down removes the socket file.
 */
export async function servePod(pod: ServedPod, options: ServePodOptions = {}): Promise<PodServer> {
  const socketPath = options.socketPath ?? podSocketPath(pod.status().projectRoot, options.env);
  await prepareSocketPath(socketPath);
  const protocol = new PodProtocolServer(pod, options);
  const listener = createServer((socket) => protocol.attach(socket, socket));
  await listen(listener, socketPath);
  await restrictSocket(socketPath);
  protocol.onShutdown(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await unlink(socketPath).catch(() => undefined);
  });
  return {
    socketPath,
    get clientCount() {
      return protocol.clientCount;
    },
    shutdown: (reason = "the Pod is shutting down") => protocol.shutdown(reason),
    closed: protocol.closed,
  };
}

/**
 * Serves a Pod over a stream pair, normally a child process's standard input and output, for the
 * one client at the other end (its parent). Nothing else may write to `output`. When `input`
 * ends, the parent is gone and no one can answer the Pod any more: the run going is cancelled and
 * the server shuts down (unlike a socket, where other clients may still be watching).
 */
export function serveStdio(
  pod: ServedPod,
  input: Readable = process.stdin,
  output: Writable = process.stdout,
  options: ProtocolServerOptions = {},
): PodServer {
  const protocol = new PodProtocolServer(pod, options);
  protocol.attach(input, output, () => {
    void protocol.shutdown("standard input was closed");
  });
  return {
    get clientCount() {
      return protocol.clientCount;
    },
    shutdown: (reason = "the Pod is shutting down") => protocol.shutdown(reason),
    closed: protocol.closed,
  };
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
