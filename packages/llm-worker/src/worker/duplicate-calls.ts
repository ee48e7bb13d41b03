import type { ToolResultItem } from "../llm-client/item.js";
import type { Response } from "../llm-client/response.js";
import { errorResult } from "./tool-runner.js";

/**
 * A model (or a gateway that numbers calls itself) may give two calls of one response the same
 * id. Running both would act twice and answer one id twice, which providers refuse in the next
 * request. The first call keeps the id; each later one is renamed (`<id>_dup2`, in the response's
 * items too, so history pairs every call with exactly one result) and is answered with an error
 * result instead of running. Returns those results by call index; empty when all ids differ.
 */
export function separateDuplicateCalls(response: Response): Map<number, ToolResultItem> {
  const answered = new Map<number, ToolResultItem>();
  const calls = response.toolCalls;
  if (calls.length < 2) return answered;
  const ids = new Set<string>();
  const renamed = new Map<number, string>();
  calls.forEach((call, i) => {
    if (!ids.has(call.id)) {
      ids.add(call.id);
      return;
    }
    let n = 2;
    while (ids.has(`${call.id}_dup${n}`)) n++;
    const id = `${call.id}_dup${n}`;
    ids.add(id);
    renamed.set(i, id);
    const message = `this call repeats the id "${call.id}" of an earlier call in the same response, so it was not run; call ${call.name} again if it is still needed`;
    answered.set(i, errorResult({ id, name: call.name }, message));
  });
  if (renamed.size === 0) return answered;
  let index = 0;
  for (const item of response.items) {
    if (item.type !== "tool_call") continue;
    const id = renamed.get(index);
    const call = calls[index];
    if (id !== undefined && call !== undefined) {
      item.callId = id;
      call.id = id;
    }
    index++;
  }
  return answered;
}
