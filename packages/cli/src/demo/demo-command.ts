import path from "node:path";
import { startMockProvider } from "@yoake/llm-worker/testing";
import type { Pod, PodRunResult } from "@yoake/pod";
import { ExitCode, type ExitCodeValue } from "../cli-error.js";
import { failureOf } from "../headless/run-summary.js";
import { startInteractive } from "../interactive.js";
import type { InterruptSource } from "../interrupt.js";
import type { CliIO } from "../io.js";
import { openPod } from "../open-pod.js";
import { createDemoWorkspace, type DemoWorkspace } from "./demo-project.js";
import { yoakeInvocation } from "./invocation.js";
import { DemoNarrator } from "./narrator.js";
import { DEMO_MODEL_ID, ScriptedDemoModel } from "./scripted-model.js";
import { DEMO_PROMPTS, SCRIPTED_NOTICE } from "./tour.js";

/** The options of `yoake demo`. */
export interface DemoCommandOptions {
  /** Print the session as text instead of opening the UI. */
  print?: boolean;
  /** Keep the temporary project afterwards. */
  keep?: boolean;
}

/** The variable the demo's manifest names for its (fake) key; set only in the Pod's own environment. */
const DEMO_KEY_VARIABLE = "YOAKE_DEMO_API_KEY";

/**
 * `yoake demo`: a mock provider with the scripted model, a scratch copy of the example project,
 * and the real Pod on it — then the terminal UI, or (`-p`, or without a terminal) the scripted
 * prompts run one after another with the session printed as text.
 */
export async function demoCommand(
  options: DemoCommandOptions,
  io: CliIO,
  interrupts?: InterruptSource,
): Promise<ExitCodeValue> {
  const interactive = options.print !== true && io.stdin.isTTY === true && io.stdout.isTTY === true;
  if (options.print !== true && !interactive)
    io.stderr.write("yoake demo: no terminal here, so the session is printed as text (as with -p)\n");
  io.stdout.write(`${SCRIPTED_NOTICE}\n`);

  const workspace = await createDemoWorkspace();
  let narrator: DemoNarrator | undefined;
  const model = new ScriptedDemoModel((pruned, request) => narrator?.pruned(pruned, request));
  // Delays make the streaming visible in the UI; the printed transcript needs none.
  const provider = await startMockProvider(interactive ? { writeDelayMs: 5 } : {});
  provider.setHandler(model.handler);
  let pod: Pod | undefined;
  try {
    pod = await openDemoPod(workspace, provider.baseURLFor("anthropic"));
    io.stdout.write(`project: ${workspace.projectDir} (a scratch copy of packages/cli/demo/project)\n`);
    if (interactive) {
      io.stdout.write(
        `Try these prompts, in order:\n${DEMO_PROMPTS.map((p, i) => `  ${i + 1}. ${p}`).join("\n")}\n`,
      );
      await startInteractive({ pod, title: "yoake demo · scripted model, no network" });
      return ExitCode.ok;
    }
    narrator = new DemoNarrator(io.stdout, pod);
    const interrupt = interrupts?.();
    try {
      return await printTour(pod, narrator, yoakeInvocation(io.env), interrupt?.signal);
    } finally {
      interrupt?.dispose();
    }
  } finally {
    await pod?.close();
    await provider.close();
    if (options.keep === true) io.stdout.write(`kept: ${workspace.projectDir}\n`);
    else await workspace.remove();
  }
}

/**
 * The Pod, configured as a person would with a manifest — only the model is the mock's, and the
 * environment is the demo's own: the user's config, keys and state are neither read nor written.
 */
async function openDemoPod(workspace: DemoWorkspace, baseURL: string): Promise<Pod> {
  const home = workspace.homeDir;
  return openPod({
    cwd: workspace.projectDir,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_STATE_HOME: path.join(home, "state"),
      [DEMO_KEY_VARIABLE]: "demo-key-not-a-secret",
    },
    dataDir: path.join(home, "pod-data"),
    overrides: {
      model: {
        scheme: "anthropic",
        id: DEMO_MODEL_ID,
        base_url: baseURL,
        api_key_env: DEMO_KEY_VARIABLE,
        context_window: 200_000,
        max_output_tokens: 8_192,
      },
    },
  });
}

/** Sends each prompt of the tour, approving edits with a visible notice, and prints it all. */
async function printTour(
  pod: Pod,
  narrator: DemoNarrator,
  yoake: string,
  interrupt?: AbortSignal,
): Promise<ExitCodeValue> {
  const detach = narrator.attach();
  const runOptions = interrupt === undefined ? {} : { signal: interrupt };
  try {
    for (const [index, prompt] of DEMO_PROMPTS.entries()) {
      narrator.prompt(index + 1, DEMO_PROMPTS.length, prompt);
      let result: PodRunResult = await pod.run(prompt, runOptions);
      while (result.status === "paused" && result.permissionRequest !== undefined) {
        const request = result.permissionRequest;
        narrator.approval(
          request.callId,
          request.tool,
          request.preview?.ok === true
            ? request.preview.diff
            : request.command !== undefined
              ? `$ ${request.command.command}  (${request.command.reason})`
              : request.preview?.message,
        );
        result = await pod.respond(request.id, "allow_once", runOptions);
      }
      const failure = failureOf(result);
      if (failure !== undefined) {
        narrator.line(`yoake demo: step ${index + 1} did not finish: ${failure.message}`);
        return interrupt?.aborted === true ? ExitCode.interrupted : ExitCode.runFailed;
      }
    }
  } finally {
    detach();
  }
  narrator.heading("━━ end of the demo ━━");
  narrator.line(
    // The command as the user runs it: `npx yoake` after a global install would fetch yoake again.
    `That was a scripted model on the real Pod. On your own project: set ANTHROPIC_API_KEY (or OPENAI_API_KEY, GEMINI_API_KEY; or run Ollama), then \`${yoake}\` for the terminal UI or \`${yoake} -p "..."\` for one headless run.`,
  );
  return ExitCode.ok;
}
