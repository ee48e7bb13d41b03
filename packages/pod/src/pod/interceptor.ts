import type { Interceptor } from "@yoake/llm-worker";
import type { PodSharedState } from "./shared-state.js";

/** The name the Worker gives the Pod interceptor in results (`by`) and errors. */
export const POD_INTERCEPTOR_NAME = "pod";

/**
 * The Pod's own interceptor (full power, unlike the manifest's hooks):
 * - at prompt submit it drains the file-reference stash and returns `continue_with`, so each
 *   resolved file enters history as a system message right after the user message (seed 004);
 *   the public Hook's prompt action stays `continue` / `cancel`;
 * - before a tool call that needs approval it pauses the run (see `Approvals`).
 */
export function podInterceptor(state: PodSharedState): Interceptor {
  return {
    name: POD_INTERCEPTOR_NAME,
    onPromptSubmit: () => {
      const items = state.drainFileRefs();
      return items.length > 0 ? { action: "continue_with", items } : undefined;
    },
    beforeToolCall: (call) => state.approvals.askBeforeToolCall(call),
  };
}
