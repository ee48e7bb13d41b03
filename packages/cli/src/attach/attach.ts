import { connectPod, findServedPod } from "@yoake/pod/protocol";
import { RemotePod } from "./remote-pod.js";

/**
 * The Pod `yoake serve` runs for the project around `cwd`, attached to as `clientName`, or
 * undefined when no Pod serves that project (a socket left by a server that died counts as none).
 * The served Pod applied the project's trust when it started: attaching changes nothing of it.
 */
export async function attachToServedPod(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  clientName: string,
): Promise<RemotePod | undefined> {
  const socketPath = await findServedPod(cwd, env);
  if (socketPath === undefined) return undefined;
  return RemotePod.attach(await connectPod(socketPath, { clientName }));
}
