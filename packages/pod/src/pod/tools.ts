import type { Tool } from "@yoake/llm-worker";
import type { Manifest } from "../manifest/resolve.js";
import type { PlanBook } from "../plan/plan.js";
import { createTodoWriteTool } from "../plan/todo-write-tool.js";
import type { ScopedFs } from "../scope/scoped-fs.js";
import { createBashTools } from "../shell/bash-tool.js";
import type { Shell } from "../shell/shell.js";
import { createSkillTool } from "../skills/skill-tool.js";
import type { Skill } from "../skills/skills.js";
import { createTaskTool, type TaskParent } from "../subagents/task-tool.js";
import { createFileTools } from "../tools/index.js";
import type { ReadTracker } from "../tools/read-tracker.js";
import { createWebFetchTool } from "../web/web-fetch-tool.js";

/** The Pod's own state some tools work on. */
export interface PodToolState {
  /** The model's plan, which `todo_write` writes. */
  plan: PlanBook;
  /** The skills found; the `skill` tool is offered when there is one. */
  skills: readonly Skill[];
  /** How sub-agents are started; the `task` tool is offered when given (not below the depth cap). */
  tasks?: TaskParent;
  /** Runs `bash` commands; `bash` and `bash_output` are offered when given. */
  shell?: Shell;
}

/**
 * The tools the manifest offers the model: the file tools (capped at `limits.tool_output_bytes`,
 * sharing the session's `tracker`), `bash` / `bash_output` when the Pod has a shell, and the Pod's
 * own (`todo_write`, `skill`, `web_fetch`, `task`), all but `tools.disable`.
 */
export function podTools(
  fs: ScopedFs,
  manifest: Manifest,
  tracker: ReadTracker,
  state: PodToolState,
): Tool[] {
  const disabled = new Set(manifest.tools.disable);
  return [
    ...createFileTools(fs, { tracker, maxBytes: manifest.limits.toolOutputBytes }),
    ...(state.shell === undefined ? [] : createBashTools(state.shell)),
    createTodoWriteTool(state.plan),
    ...(state.skills.length > 0 ? [createSkillTool(state.skills)] : []),
    // Offered only when the manifest lets it reach some host.
    ...(manifest.web.allowHosts.length > 0 ? [createWebFetchTool(manifest.web)] : []),
    ...(state.tasks === undefined ? [] : [createTaskTool(state.tasks)]),
  ].filter((tool) => !disabled.has(tool.name));
}
