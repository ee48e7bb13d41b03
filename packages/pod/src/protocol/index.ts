/**
 * `@yoake/pod/protocol`: the client protocol (JSON lines over a Unix socket or standard input and
 * output) — the client a program attaches to a running Pod with, the server and its transports,
 * the message schemas and types, and the project's socket. See DESIGN.md beside this file for how
 * Pod events map to the wire.
 */
export { connectPod, PodClient, type PodClientOptions, PodProtocolError } from "./client.js";
export { type CheckedRequest, Connection, type ConnectionOptions, describeIssues } from "./connection.js";
export { failedRunResult, toWireEvent, toWireRunResult } from "./event-mapping.js";
export { type LineSink, LineSplitter } from "./line-splitter.js";
export {
  type ClientRequest,
  clientRequestSchema,
  ERROR_CODES,
  errorResponseSchema,
  METHOD_NAMES,
  type MethodName,
  type MethodResults,
  methodParamsSchemas,
  methodResultSchemas,
  type ParamsOf,
  PROTOCOL_VERSION,
  type ProtocolErrorBody,
  type ProtocolErrorCode,
  type ProtocolResponse,
  podStatusSchema,
  type RequestId,
  type ResultOf,
  resultResponseSchema,
  type StartedRun,
  type WireStatus,
} from "./messages.js";
export { PodProtocolServer, type ProtocolServerOptions, type ShutdownOptions } from "./protocol-server.js";
export type { ServedPod } from "./served-pod.js";
export { type PodServer, type ServePodOptions, servePod, serveStdio } from "./server.js";
export {
  checkPrivateSocket,
  ForeignSocketError,
  findServedPod,
  podSocketPath,
  prepareSocketPath,
  projectSocketPath,
  SocketInUseError,
} from "./socket-path.js";
export {
  type ServerMessage,
  serverMessageSchema,
  type WireError,
  type WireEvent,
  type WireEventName,
  type WireEventOf,
  type WireRunResult,
  wireEventSchema,
} from "./wire-events.js";
