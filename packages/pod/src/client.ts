/**
 * `@yoake/pod/client`: the protocol client alone, for a program that talks to a running Pod over
 * its socket (an editor extension, a script) without loading the Pod itself — no manifest, file
 * tools or session log are imported. Everything here is also exported by `@yoake/pod/protocol`.
 */
export { connectPod, PodClient, type PodClientOptions, PodProtocolError } from "./protocol/client.js";
export {
  PROTOCOL_VERSION,
  type ProtocolErrorCode,
  type ResultOf,
  type WireStatus,
} from "./protocol/messages.js";
export { podSocketPath } from "./protocol/socket-path.js";
export type { WireEvent, WireEventName, WireEventOf, WireRunResult } from "./protocol/wire-events.js";
