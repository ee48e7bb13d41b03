import { LlmError } from "@yoake/llm-worker";
import { ManifestError, Pod, type PodOptions, SessionLogError } from "@yoake/pod";
import { CliError } from "./cli-error.js";

/**
 * Creates the Pod the command runs, turning what a person can fix — an invalid manifest, an
 * unknown provider, a missing API key, a session that cannot be continued — into a `CliError` (exit code 2, one line where the cause
 * is one line: `no API key for gpt-5 (openai-responses): set OPENAI_API_KEY`). Anything else is a
 * bug and is rethrown as it is.
 */
export async function openPod(options: PodOptions): Promise<Pod> {
  try {
    return await Pod.create(options);
  } catch (error) {
    if (error instanceof ManifestError) throw new CliError(error.message);
    // The client is made from the manifest before any request: its errors are configuration.
    if (error instanceof LlmError) throw new CliError(error.message);
    // --continue with no session yet, --resume with an unknown or ambiguous id, a damaged log.
    if (error instanceof SessionLogError) throw new CliError(`cannot open the session: ${error.message}`);
    throw error;
  }
}
