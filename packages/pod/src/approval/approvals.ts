import { randomUUID } from "node:crypto";
import type { Interceptor, ToolCall } from "@yoake/llm-worker";
import type { BeforeToolAction } from "@yoake/llm-worker/internal";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { BASH_TOOL_NAME } from "../shell/bash-tool.js";
import type { CommandApprovals, CommandAsk } from "../shell/command-approval.js";
import type { TaskModelApprovals, TaskModelAsk } from "../subagents/task-model-approval.js";
import { TASK_TOOL } from "../subagents/task-tool.js";
import { previewToolCall } from "./diff-preview.js";
import type { PermissionDecision, PermissionRequest } from "./permission.js";

/** The interceptor name that skips a denied call: the model reads `[skipped by approval: ...]`. */
export const APPROVAL_VERDICT_NAME = "approval";

/**
 * The Pod's approval state, built on the Worker's pause / resume. Before a call of a tool that
 * needs approval, `askBeforeToolCall` records a permission request and pauses the run. The
 * answer is recorded here by `decide`; the Pod then resumes the Worker, which goes on past the
 * step that paused (it is not asked again) to the verdict interceptor placed right after it:
 * allowed, the call runs; denied, the verdict interceptor skips it with the user's reason, which
 * the model reads as the call's error result.
 */
export class Approvals {
  private readonly required: ReadonlySet<string>;
  private readonly allowedForSession = new Set<string>();
  /** Call id → the user's reason, until the verdict interceptor applies it on resume. */
  private readonly denied = new Map<string, string>();
  private pendingRequest: PermissionRequest | undefined;

  constructor(
    required: Iterable<string>,
    private readonly fs: ScopedFs,
    /** Cap on a diff preview, in bytes. */
    private readonly previewBytes: number,
    /** Which `bash` commands ask (no sandbox, `always_ask`), beyond `tools.approve`. */
    private readonly commands?: CommandApprovals,
    /** Which `task` calls ask for the model they pick (another provider, a local endpoint). */
    private readonly taskModels?: TaskModelApprovals,
  ) {
    this.required = new Set(required);
  }

  /** The request the paused run waits on, if any. */
  get pending(): PermissionRequest | undefined {
    return this.pendingRequest;
  }

  /** Whether a call of `tool` would stop for approval now. */
  needsApproval(tool: string): boolean {
    return this.required.has(tool) && !this.allowedForSession.has(tool);
  }

  /**
   * The asking step (a method of the Pod interceptor): pauses before a call that needs approval.
   * A call whose arguments are not JSON is not asked about: it cannot run anyway.
   */
  async askBeforeToolCall(call: ToolCall): Promise<BeforeToolAction | undefined> {
    if (call.parseError !== undefined) return undefined;
    const command = this.commandAsk(call);
    const model = this.modelAsk(call);
    if (!this.needsApproval(call.name) && command === undefined && model === undefined) return undefined;
    const preview = await previewToolCall(this.fs, call.name, call.arguments, this.previewBytes);
    this.pendingRequest = {
      id: randomUUID(),
      callId: call.id,
      tool: call.name,
      arguments: call.arguments,
      ...(preview !== undefined && { preview }),
      ...(command !== undefined && { command }),
      ...(model !== undefined && { model }),
    };
    return { action: "pause", reason: `waiting for the user's approval of ${call.name}` };
  }

  /** The step right after the asking one: a denied call is skipped, with the user's reason. */
  verdictInterceptor(): Interceptor {
    return {
      name: APPROVAL_VERDICT_NAME,
      beforeToolCall: (call) => {
        const reason = this.denied.get(call.id);
        if (reason === undefined) return undefined;
        this.denied.delete(call.id);
        return { action: "skip", reason: `the user denied this call: ${reason}` };
      },
    };
  }

  /** Records the answer to the pending request; throws if `id` is not the pending request. */
  decide(id: string, decision: PermissionDecision): PermissionRequest {
    const request = this.pendingRequest;
    if (request === undefined || request.id !== id) {
      throw new Error(`no pending permission request ${JSON.stringify(id)}`);
    }
    this.pendingRequest = undefined;
    // For a command the session allows its prefix (`npm test`), not every command.
    if (decision === "allow_session" && request.command !== undefined)
      this.commands?.allowForSession(request.command);
    // For a sub-agent's model the session allows that model, not every `task` call.
    else if (decision === "allow_session" && request.model !== undefined)
      this.taskModels?.allowForSession(request.model);
    else if (decision === "allow_session") this.allowedForSession.add(request.tool);
    else if (decision !== "allow_once")
      this.denied.set(request.callId, decision.deny.trim() || "no reason given");
    return request;
  }

  /** Why a `bash` call asks although the tool itself needs no approval (or the session allowed it). */
  private commandAsk(call: ToolCall): CommandAsk | undefined {
    if (call.name !== BASH_TOOL_NAME || this.commands === undefined) return undefined;
    const command = (call.arguments as { command?: unknown } | null)?.command;
    return typeof command === "string" ? this.commands.check(command) : undefined;
  }

  /** Why a `task` call asks: the model it picks sends the child's conversation elsewhere. */
  private modelAsk(call: ToolCall): TaskModelAsk | undefined {
    if (call.name !== TASK_TOOL || this.taskModels === undefined) return undefined;
    const model = (call.arguments as { model?: unknown } | null)?.model;
    return typeof model === "string" ? this.taskModels.check(model) : undefined;
  }

  /** Forgets the pending request (a new run replaced the paused one); returns it, if there was one. */
  abandon(): PermissionRequest | undefined {
    const request = this.pendingRequest;
    this.pendingRequest = undefined;
    this.denied.clear();
    return request;
  }
}
