import { connectPod, findServedPod } from "@yoake/pod/protocol";
import { RemotePod } from "./remote-pod.js";

/** How a client attaches: its name to the other clients, and whether a person answers approvals in it. */
export interface AttachAs {
  /** `yoake`, `yoake -p`, `yoake acp`: the others read it when this client cancels their run. */
  clientName: string;
  /** A terminal UI or an editor asks its user; `yoake -p` cannot. */
  answersApprovals: boolean;
}

/**
 * The Pod `yoake serve` runs for the project around `cwd`, attached to as `as` says, or
 * undefined when no Pod serves that project (a socket left by a server that died counts as none).
 * The served Pod applied the project's trust when it started: attaching changes nothing of it.
 */
export async function attachToServedPod(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  as: AttachAs,
): Promise<RemotePod | undefined> {
  const socketPath = await findServedPod(cwd, env);
  if (socketPath === undefined) return undefined;
  return RemotePod.attach(await connectPod(socketPath, as));
}
