import type { Manifest } from "../manifest/resolve.js";
import type { ManifestLayerInput } from "../manifest/schema.js";
import type { PodOwnEvent } from "../pod/events.js";
import type { Pod, PodOptions } from "../pod.js";
import type { SessionStore } from "../session-log/session-store.js";
import { childScope } from "./child-scope.js";
import { type TaskLimits, TaskSlots } from "./task-limits.js";
import type { TaskParent, TaskRequest } from "./task-tool.js";

const WRITE_TOOLS = ["write_file", "edit_file"] as const;

export interface TaskParentContext {
  /** How the parent Pod was created: a child is created the same way, narrowed. */
  options: PodOptions;
  manifest: Manifest;
  /** Where the children's sessions are written: the parent's store, so their final hash is read back from it. */
  sessionStore: SessionStore;
  limits: TaskLimits;
  /** `Pod.create` (passed in: this module is below the Pod). */
  create(options: PodOptions): Promise<Pod>;
  /** Delivers a `subagent` event to the parent's listeners. */
  emit(event: PodOwnEvent): void;
}

/**
 * How a Pod starts its children. A child loads the same manifest cascade from the same directory
 * with the parent's overrides, then narrower ones: its scope is the parent's made read-only
 * (`childScope`) unless it asks to write, its write tools are off when it may not write, its turns
 * are capped, it starts no MCP servers and, one level below the depth cap, offers no `task` tool.
 * Writes are refused outright when the parent needs the user's approval for them: a child cannot
 * ask the user, and must not write what the parent could only write with approval.
 */
export function createTaskParent(context: TaskParentContext): TaskParent {
  const { options, manifest, limits } = context;
  const depth = options.child?.depth ?? 0;
  return {
    slots: new TaskSlots(limits),
    report: (callId, description, activity) =>
      context.emit({ type: "subagent", callId, description, ...activity }),
    spawn: (request: TaskRequest) => {
      if (request.write) {
        const asks = WRITE_TOOLS.filter((name) => manifest.tools.approve.includes(name));
        if (asks.length > 0)
          throw new Error(
            `a sub-agent cannot write here: ${asks.join(" and ")} need the user's approval, which a sub-agent cannot ask for; ask for a read-only one, or make the change yourself`,
          );
      }
      const disable: string[] = [...manifest.tools.disable, ...(request.write ? [] : WRITE_TOOLS)];
      const overrides: ManifestLayerInput = {
        ...options.overrides,
        ...(request.model !== undefined && { model: { ref: request.model } }),
        limits: {
          ...options.overrides?.limits,
          turns: Math.min(request.maxTurns ?? limits.maxTurns, limits.maxTurns),
        },
        tools: {
          ...options.overrides?.tools,
          disable,
          // A disabled tool needs no approval: a call to it is answered "unknown tool", not paused.
          approve: manifest.tools.approve.filter((name) => !disable.includes(name)),
        },
      };
      // The embedder's own tools stay with the parent: they are not narrowed by the child's scope.
      const { client, session: _session, tools: _tools, ...inherited } = options;
      return context.create({
        ...inherited,
        // A client given to the parent (an embedder's transport) serves the same model only.
        ...(client !== undefined && request.model === undefined && { client }),
        overrides,
        session: "new",
        // A child's own children narrow its scope, not the manifest's (which it reloaded whole).
        child: { scope: childScope(options.child?.scope ?? manifest.scope, request.write), depth: depth + 1 },
      });
    },
    finalHash: async (sessionId) => {
      try {
        return (await context.sessionStore.read(sessionId)).at(-1)?.mac;
      } catch {
        // A child that never wrote a line has no log.
        return undefined;
      }
    },
  };
}
