import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import { Pod } from "@yoake/pod";
import { createSession, itemEntry, loadSessionKey } from "@yoake/pod/session-log";
import { render } from "ink-testing-library";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SwitchablePod } from "../../switchable-pod.js";
import { listProjectFiles } from "../files/project-files.js";
import { App } from "./app.js";

let base: string;
let project: string;
let mock: MockProvider;
let env: Record<string, string>;

beforeEach(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-restored-notice-")));
  project = path.join(base, "project");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  mock = await startMockProvider();
  env = { HOME: path.join(base, "home"), XDG_STATE_HOME: path.join(base, "state"), KEY: "k" };
});
afterEach(async () => {
  await mock.close();
  rmSync(base, { recursive: true, force: true });
});

/** The log a Pod killed inside a tool call leaves: the run started, the call logged, nothing after. */
async function crashedSession(): Promise<string> {
  const log = await createSession(
    project,
    {
      config: {
        model: { scheme: "anthropic", id: "mock-model" },
        cwd: project,
        projectRoot: project,
        scope: { root: project, allow: [], deny: [] },
        manifestSources: [],
      },
    },
    { key: await loadSessionKey(env) },
  );
  await log.append({ type: "user_input", segments: [{ type: "text", text: "build it" }], text: "build it" });
  await log.append({ type: "run_start" });
  await log.append(itemEntry({ type: "message", role: "user", text: "build it" }));
  await log.append(itemEntry({ type: "tool_call", callId: "toolu_1", name: "read_file", arguments: "{}" }));
  await log.close();
  return log.id;
}

describe("continuing a session a crash interrupted, in the terminal UI", () => {
  it("shows the Pod's one-line notice as an alert when the UI opens", async () => {
    const id = await crashedSession();
    const options = {
      cwd: project,
      env,
      session: "latest",
      overrides: {
        model: {
          scheme: "anthropic",
          id: "mock-model",
          base_url: mock.baseURLFor("anthropic"),
          api_key_env: "KEY",
        },
      },
    } as const;
    const pod = new SwitchablePod(await Pod.create(options), options, Pod.create);
    try {
      const view = render(
        <App pod={pod} title="yoake test" loadFiles={() => listProjectFiles(pod.current.fs)} />,
      );
      await vi.waitFor(() => expect(view.lastFrame()).toContain("was interrupted"), { timeout: 5000 });
      const frame = stripVTControlCharacters(view.lastFrame() ?? "").replace(/\s+/g, " ");
      // (The alert's label may land inside the wrapped text: a rendering matter of its own.)
      expect(frame).toContain(`the last run of session ${id} was interrupted (the process crashed`);
      expect(frame).toContain("1 tool call unanswered (read_file)");
      view.unmount();
    } finally {
      await pod.current.close();
    }
  });
});
