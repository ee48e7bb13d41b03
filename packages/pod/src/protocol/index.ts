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
  type ServerMessage,
  serverMessageSchema,
  type WireError,
  type WireEvent,
  type WireEventName,
  type WireEventOf,
  type WireRunResult,
  type WireStatus,
  wireEventSchema,
} from "./messages.js";
export { PodProtocolServer, type ProtocolServerOptions, type ShutdownOptions } from "./protocol-server.js";
export type { ServedPod } from "./served-pod.js";
export { type PodServer, type ServePodOptions, servePod, serveStdio } from "./server.js";
export { podSocketPath, prepareSocketPath, SocketInUseError } from "./socket-path.js";
