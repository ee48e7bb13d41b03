import path from "node:path";
import {
  BLOB_STORE_PRUNE_OPTIONS,
  BLOB_STORE_TOOL_OUTPUT,
  createInspectTool,
  FsBlobStore,
  pruneInterceptor,
  recallInterceptor,
  Worker,
} from "@yoake/llm-worker";
import { toolDefinition } from "@yoake/llm-worker/internal";
import { Approvals } from "../approval/approvals.js";
import { resolveCompactionSettings } from "../compaction/compaction-settings.js";
import { createShellHooks } from "../hooks/shell-hook.js";
import { podDataDir } from "../manifest/data-dir.js";
import { loadManifest } from "../manifest/load.js";
import type { Manifest } from "../manifest/resolve.js";
import { McpSupervisor } from "../mcp/mcp-supervisor.js";
import { PlanBook } from "../plan/plan.js";
import { planInterceptor } from "../plan/plan-interceptor.js";
import type { Pod } from "../pod.js";
import { clientForModel } from "../pod-client.js";
import { openPodSession } from "../restore/open-pod-session.js";
import { ScopedFs } from "../scope/scoped-fs.js";
import { FileSessionStore } from "../session-log/file-session-store.js";
import { loadSessionKey } from "../session-log/session-key.js";
import { CommandApprovals } from "../shell/command-approval.js";
import { openShell } from "../shell/open-shell.js";
import type { Shell } from "../shell/shell.js";
import { discoverSkills } from "../skills/skills.js";
import { DEFAULT_TASK_LIMITS } from "../subagents/task-limits.js";
import { createTaskParent } from "../subagents/task-parent.js";
import { ReadTracker } from "../tools/read-tracker.js";
import { PodEventHub } from "./events.js";
import { podInterceptor } from "./interceptor.js";
import type { PodOptions } from "./options.js";
import { PodSession } from "./session.js";
import { PodSharedState } from "./shared-state.js";
import { podTools } from "./tools.js";

/** Everything a Pod is made of, as `assemblePod` builds it; the Pod's fields say what each is for. */
export interface PodParts {
  manifest: Manifest;
  fs: ScopedFs;
  worker: Worker;
  dataDir: string;
  state: PodSharedState;
  hub: PodEventHub;
  session: PodSession;
  mcp: McpSupervisor;
  shell: Shell | undefined;
  plan: PlanBook;
}

/**
 * Loads the manifest cascade from `options.cwd` and builds what it describes: the scope, the
 * client, the shell, the hooks, the session log (opened once the manifest and the key have loaded,
 * so a Pod that cannot be built leaves no log behind), the tools, the Worker with its interceptors
 * in order, and the MCP servers (last, once alerts have somewhere to go). `create` is `Pod.create`, which the `task` tool uses
 * for its sub-agents (passed in: this module is below the Pod).
 */
export async function assemblePod(
  options: PodOptions,
  create: (options: PodOptions) => Promise<Pod>,
): Promise<PodParts> {
  const env = options.env ?? process.env;
  for (const dir of options.shellHide ?? [])
    if (!path.isAbsolute(dir)) throw new Error(`shellHide: ${JSON.stringify(dir)} is not an absolute path`);
  const manifest = await loadManifest({
    cwd: options.cwd,
    env,
    ...(options.overrides !== undefined && { overrides: options.overrides }),
    ...(options.projectTrust !== undefined && { projectTrust: options.projectTrust }),
  });
  const fs = await ScopedFs.create(options.child?.scope ?? manifest.scope, {
    allowHardLinks: manifest.scope.hardLinks,
  });
  const client = options.client ?? clientForModel(manifest.model, env);
  const dataDir = options.dataDir ?? podDataDir(manifest.projectRoot, env);
  // The hooks raise alerts through the hub, which needs the Worker: they meet through this slot.
  let hub: PodEventHub | undefined;
  const hooks = createShellHooks(manifest.hooks, {
    projectRoot: manifest.projectRoot,
    env,
    ...(manifest.model.apiKeyEnv !== undefined && { keyVariables: new Set([manifest.model.apiKeyEnv]) }),
    alert: (alert) => hub?.emit({ type: "alert", ...alert }),
  });
  const compaction = resolveCompactionSettings(options.compaction ?? {}, manifest.model.contextWindow);
  const blobStore = options.blobStore ?? new FsBlobStore(path.join(dataDir, "blobs"));
  // The user's key, kept outside the project, seals and verifies every line of the session log.
  const sessionStore =
    options.sessionStore ??
    new FileSessionStore(manifest.projectRoot, {
      key: await loadSessionKey(env),
      ...(options.sessionDurability !== undefined && { durability: options.sessionDurability }),
    });
  // The sandbox probe starts a bwrap process: the log and the skills are read meanwhile.
  // `openShell` does not reject (a failed probe is a status), so nothing is left unhandled.
  const shellOpening = openShell(manifest, options.cwd, env, options.shellHide);
  // Last, so a Pod that cannot be built (no key, a bad manifest) leaves no log behind.
  // A session that cannot be opened still waits for the probe: `create` leaves no process behind
  // (the probe's bwrap may be creating its mount points in the project when the caller cleans up).
  const opened = await openPodSession(manifest, options.cwd, options.session ?? "new", sessionStore).catch(
    async (error: unknown) => {
      await shellOpening;
      throw error;
    },
  );
  const plan = new PlanBook(opened.restored?.plan);
  const [{ shell, warnings: shellWarnings }, skills] = await Promise.all([
    shellOpening,
    discoverSkills(manifest.projectRoot, env),
  ]);
  // Told with the manifest's warnings, which the user reads at start (as is a skill folder that
  // cannot be read).
  manifest.warnings.push(...shellWarnings, ...skills.warnings);
  const commands =
    shell && new CommandApprovals(manifest.shell.alwaysAsk, shell.sandboxed, manifest.shell.ask);
  const state = new PodSharedState(
    new Approvals(manifest.tools.approve, fs, manifest.limits.toolOutputBytes, commands),
    new ReadTracker(),
  );
  const taskLimits = options.taskLimits ?? DEFAULT_TASK_LIMITS;
  const delegates = (options.child?.depth ?? 0) < taskLimits.maxDepth;
  const tasks = createTaskParent({
    options,
    manifest,
    sessionStore,
    limits: taskLimits,
    create,
    emit: (event) => hub?.emit(event),
  });
  const tools = [
    ...podTools(fs, manifest, state.readTracker, {
      ...(shell !== undefined && { shell }),
      plan,
      skills: skills.skills,
      ...(delegates && { tasks }),
    }),
    ...(options.tools ?? []),
  ];
  // The policy measured for a Worker with a BlobStore (see BLOB_STORE_PRUNE_OPTIONS).
  const prune = pruneInterceptor({
    ...BLOB_STORE_PRUNE_OPTIONS,
    prunedCallIds: opened.restored?.prunedCallIds ?? [],
  });
  const session = new PodSession(opened, {
    manifest,
    cwd: options.cwd,
    fs,
    client,
    readTracker: state.readTracker,
    prune,
    compaction,
    sessionStore,
    // As the Worker lists them (inspect first): what a compaction sends before any request did.
    toolDefinitions: [createInspectTool(blobStore), ...tools].map((t) => toolDefinition(t)),
    emit: (event) => hub?.emit(event),
    plan,
  });
  const worker = new Worker({
    client,
    system: manifest.instructions.systemPrompt,
    tools,
    // The session's interceptors go first (the log is synced before anything else acts) and
    // around prune (compaction measures before it, its prunes are logged after it).
    interceptors: [
      session.first,
      prune,
      session.afterPrune,
      podInterceptor(state),
      planInterceptor(plan),
      state.approvals.verdictInterceptor(),
      // Last: its lines follow the message's own attachments, and it is cut short only where
      // prune already broke the cached prefix (see recallInterceptor).
      recallInterceptor({ store: blobStore, history: opened.restored?.history ?? [] }),
    ],
    hooks,
    blobStore,
    toolOutput: BLOB_STORE_TOOL_OUTPUT,
    maxTurns: manifest.limits.turns,
    generation: manifest.generation,
    ...(opened.restored !== undefined && { history: opened.restored.history }),
    // Calls a crash left unanswered are answered as interrupted, not as a pause not resumed.
    ...(opened.restored?.lastRun.state === "interrupted" && { restoredRun: "interrupted" as const }),
  });
  hub = new PodEventHub(worker);
  session.attach(worker);
  hub.on("alert", (alert) => session.recordAlert(alert));
  plan.onChange((current) => hub?.emit({ type: "plan_changed", plan: current }));
  for (const message of skills.warnings)
    hub.emit({ type: "alert", level: "warn", message, source: "skills" });
  // Last, once alerts have somewhere to go; the servers start alongside the first request.
  // A sub-agent works with the Pod's own tools only: it starts no servers of its own.
  const mcp = new McpSupervisor(options.child === undefined ? manifest.mcp : [], {
    tools: worker,
    disabledTools: manifest.tools.disable,
    env,
    alert: (alert) => hub?.emit({ type: "alert", ...alert }),
  });
  await mcp.start();
  return { manifest, fs, worker, dataDir, state, hub, session, mcp, shell, plan };
}
