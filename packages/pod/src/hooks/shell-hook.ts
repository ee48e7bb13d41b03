import { type Hook, systemMessage } from "@yoake/llm-worker";
import { errorMessage } from "@yoake/llm-worker/internal";
import type { HookSpec } from "../manifest/resolve.js";
import type { Alert } from "../pod/alert.js";
import type { Sandbox, SandboxStatus } from "../shell/sandbox.js";
import { type HookVerdict, verdictOf } from "./hook-verdict.js";
import { type CommandOutcome, type RunCommandOptions, runHookCommand } from "./run-command.js";
import { withoutSecrets } from "./secret-env.js";
import { compileToolMatcher } from "./tool-matcher.js";

/** What the shell hooks of one Pod share. */
export interface ShellHookContext {
  /** Where the commands run, and `project_root` in their input. */
  projectRoot: string;
  /**
   * The Pod's environment. A command gets it without secrets (`withoutSecrets`: API keys, tokens,
   * the model's key variable) except those its entry passes (`pass_env`), with `YOAKE_HOOK_EVENT`
   * and `YOAKE_PROJECT_ROOT` added.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** The model's key variable, kept from the commands whatever its name. */
  keyVariables?: ReadonlySet<string>;
  /**
   * The `bash` tool's sandbox made read-only (`Sandbox.readOnly`): every hook but those with
   * `sandbox = false` runs in it. Absent when no sandbox works: then every hook runs on the host.
   */
  sandbox?: Sandbox;
  /** Told of every hook that failed, timed out or blocked something. */
  alert(alert: Alert): void;
}

/**
 * The manifest's `[[hooks]]` as Worker hooks: the safe tier, which sees read-only summaries and
 * can only continue or block, never edit history. Each runs its command with a JSON description
 * of the moment on stdin and reads its answer from stdout (see `verdictOf`). A hook that fails,
 * times out or answers nonsense raises a warning alert and counts as `continue`: a broken hook
 * never wedges the turn.
 *
 * What blocking means at each event:
 * - `prompt_submit`: the run is cancelled before the prompt enters history (`cancel` too);
 * - `before_tool`: the call is not run; the model reads the reason as its error result (`skip`
 *   too; `abort` ends the run instead);
 * - `after_tool`: the run ends after this round of tools (`abort` too): the tool already ran;
 * - `turn_end`: the model does not get to stop: the reason goes to it as a system message and the
 *   turn goes on (bounded by the turn limit). `finish` is the same as `continue` here.
 */
export function createShellHooks(specs: readonly HookSpec[], context: ShellHookContext): Hook[] {
  return specs.map((spec) => shellHook(spec, context));
}

function shellHook(spec: HookSpec, context: ShellHookContext): Hook {
  const describe = `hook ${JSON.stringify(spec.name)} (${spec.event})`;
  const source = `hook:${spec.name}`;
  const matches = compileToolMatcher(spec.matcher);
  const ask = async (payload: Record<string, unknown>): Promise<HookVerdict> => {
    const input = JSON.stringify({ event: spec.event, project_root: context.projectRoot, ...payload });
    const outcome = await runHook(spec, context, {
      input,
      cwd: context.projectRoot,
      env: {
        ...withoutSecrets(context.env, {
          ...(spec.passEnv !== undefined && { pass: spec.passEnv }),
          ...(context.keyVariables !== undefined && { keyVariables: context.keyVariables }),
        }),
        YOAKE_HOOK_EVENT: spec.event,
        YOAKE_PROJECT_ROOT: context.projectRoot,
      },
      timeoutMs: spec.timeoutMs,
    });
    const verdict = verdictOf(outcome, describe, spec.timeoutMs);
    if (verdict.kind === "problem") {
      context.alert({
        level: "warn",
        message: `${verdict.message}; the run went on as if it said continue`,
        source,
      });
    }
    return verdict;
  };
  const unknown = (verdict: Extract<HookVerdict, { kind: "action" }>, allowed: string): undefined => {
    context.alert({
      level: "warn",
      message: `${describe} answered action ${JSON.stringify(verdict.action)}, which ${spec.event} does not know (expected ${allowed}); the run went on as if it said continue`,
      source,
    });
    return undefined;
  };
  const blocked = (what: string, reason: string): void =>
    context.alert({ level: "info", message: `${describe} ${what}: ${reason}`, source });

  const name = spec.name;
  switch (spec.event) {
    case "prompt_submit":
      return {
        name,
        onPromptSubmit: async (summary) => {
          const verdict = await ask({ prompt: summary.text });
          if (verdict.kind === "block" || (verdict.kind === "action" && verdict.action === "cancel")) {
            const reason = verdict.reason ?? "cancelled";
            blocked("cancelled the prompt", reason);
            return { action: "cancel", reason };
          }
          return verdict.kind === "action" ? unknown(verdict, "continue, block or cancel") : undefined;
        },
      };
    case "before_tool":
      return {
        name,
        beforeToolCall: async (call) => {
          if (!matches(call.name)) return undefined;
          const verdict = await ask({
            tool: call.name,
            call_id: call.callId,
            arguments: call.arguments ?? null,
          });
          if (verdict.kind === "block" || (verdict.kind === "action" && verdict.action === "skip")) {
            const reason = verdict.reason ?? "not allowed";
            blocked(`blocked ${call.name}`, reason);
            return { action: "skip", reason };
          }
          if (verdict.kind === "action" && verdict.action === "abort") {
            const reason = verdict.reason ?? "aborted";
            blocked(`stopped the run before ${call.name}`, reason);
            return { action: "abort", reason };
          }
          return verdict.kind === "action" ? unknown(verdict, "continue, block, skip or abort") : undefined;
        },
      };
    case "after_tool":
      return {
        name,
        afterToolCall: async (result) => {
          if (!matches(result.name)) return undefined;
          const verdict = await ask({
            tool: result.name,
            call_id: result.callId,
            is_error: result.isError,
            summary: result.summary,
          });
          if (verdict.kind === "block" || (verdict.kind === "action" && verdict.action === "abort")) {
            const reason = verdict.reason ?? "aborted";
            blocked(`stopped the run after ${result.name}`, reason);
            return { action: "abort", reason };
          }
          return verdict.kind === "action" ? unknown(verdict, "continue, block or abort") : undefined;
        },
      };
    case "turn_end":
      return {
        name,
        onTurnEnd: async (summary) => {
          const verdict = await ask({ turn: summary.turn, text: summary.text });
          if (verdict.kind === "block") {
            blocked("kept the turn going", verdict.reason);
            const message = `Hook ${JSON.stringify(spec.name)} did not let the turn end: ${verdict.reason}`;
            return { action: "continue", items: [systemMessage(message)] };
          }
          if (verdict.kind === "action" && verdict.action !== "finish") {
            return unknown(verdict, "continue, finish or block");
          }
          return undefined;
        },
      };
  }
}

/**
 * Runs the hook's command by `/bin/sh -c` in the read-only sandbox, or on the host when its entry
 * says `sandbox = false` or no sandbox works. The sandbox is compiled for every run, as `bash`'s
 * is, so paths made since the last one are confined too.
 */
async function runHook(
  spec: HookSpec,
  context: ShellHookContext,
  options: RunCommandOptions,
): Promise<CommandOutcome> {
  if (!spec.sandbox || context.sandbox === undefined) return runHookCommand(spec.command, options);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value;
  let launch: Awaited<ReturnType<Sandbox["launch"]>>;
  try {
    launch = await context.sandbox.launch(["/bin/sh", "-c", spec.command], options.cwd, env);
  } catch (error) {
    return { kind: "spawn_failed", message: `its sandbox could not be made: ${errorMessage(error)}` };
  }
  try {
    return await runHookCommand(
      { file: launch.file, args: launch.args, ...(launch.fd3 !== undefined && { fd3: launch.fd3 }) },
      { ...options, cwd: launch.cwd, env: launch.env },
    );
  } finally {
    // What the sandbox leaves to clean up after a command (a root command's pids cgroup).
    await launch.settle?.();
  }
}

/**
 * The start-up warning when hooks that would run sandboxed must run on the host because no
 * sandbox works (`status` not ok), naming each with its command; undefined when there is none.
 */
export function unsandboxedHooksWarning(
  specs: readonly HookSpec[],
  status: SandboxStatus,
): string | undefined {
  if (status.ok) return undefined;
  const hooks = specs.filter((spec) => spec.sandbox);
  if (hooks.length === 0) return undefined;
  const named = hooks.map((spec) =>
    spec.name === spec.command
      ? JSON.stringify(spec.command)
      : `${JSON.stringify(spec.name)} (${JSON.stringify(spec.command)})`,
  );
  return (
    `no sandbox for hooks: ${status.reason}; the hooks ${named.join(", ")} run on your machine, ` +
    "unsandboxed, with your rights, and whatever project files they run the agent can rewrite first. " +
    `Fix: ${status.fix}`
  );
}
