/** Building a Pod from its manifest: prompt, client, tools, data directory and event stream. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { LlmError } from "@yoake/llm-worker";
import { describe, expect, it } from "vitest";
import { podDataDir } from "../src/manifest/data-dir.js";
import type { PodEvent } from "../src/pod/events.js";
import { Pod } from "../src/pod.js";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

describe("Pod.create", () => {
  it("sends the manifest's prompt with AGENTS.md, and the built-in tools the manifest leaves enabled", async () => {
    const { createPod, mock, put } = bed();
    put("AGENTS.md", "Run npm test before you say done.\n");
    mock.enqueue(answer("hi"));
    const pod = await createPod({ instructions: { prompt: "Be terse." }, tools: { disable: ["grep"] } });
    await pod.run("hello");
    const body = mock.requests[0]?.body as {
      system: Array<{ text: string }>;
      tools: Array<{ name: string }>;
    };
    const system = body.system.map((block) => block.text).join("");
    expect(system).toContain("Be terse.");
    expect(system).toContain("Run npm test before you say done.");
    expect(body.tools.map((tool) => tool.name).sort()).toEqual([
      "bash",
      "bash_output",
      "edit_file",
      "glob",
      "inspect",
      "read_file",
      "task",
      "todo_write",
      "write_file",
    ]);
  });

  it("reads the API key from the variable the manifest names, and says which one is missing", async () => {
    const { project, mock } = bed();
    const create = (env: Record<string, string>) =>
      Pod.create({
        cwd: project,
        env: { HOME: path.join(project, "..", "home"), ...env },
        overrides: {
          model: {
            scheme: "anthropic",
            id: "m",
            base_url: mock.baseURLFor("anthropic"),
            api_key_env: "MY_KEY",
          },
        },
      });
    const error = await create({}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).message).toContain("set MY_KEY");
    mock.enqueue(answer("authorized"));
    const pod = await create({ MY_KEY: "secret-123" });
    await pod.run("hi");
    expect(mock.requests[0]?.headers["x-api-key"]).toBe("secret-123");
    await pod.close();
  });

  it("keeps large tool outputs in a BlobStore under the Pod's data directory, outside the project", async () => {
    const { createPod, mock, put, base, project } = bed();
    // Over the Pod's inline limit (1,536 tokens): 90 long paths.
    for (let i = 0; i < 90; i++) put(`src/features/${"nested/".repeat(8)}module-${i}.ts`, "");
    mock.enqueue(toolCall("glob", { pattern: "src/**/*.ts" }), answer("many files"));
    const pod = await createPod();
    await pod.run("list the sources");
    expect(pod.dataDir.startsWith(path.join(base, "state", "yoake", "projects", "project-"))).toBe(true);
    expect(pod.dataDir.startsWith(project)).toBe(false);
    const blobs = readdirSync(path.join(pod.dataDir, "blobs"));
    expect(blobs).toHaveLength(1);
    const result = pod.history.find((item) => item.type === "tool_result");
    expect(result?.type === "tool_result" && result.content).toMatch(/^\[blob:/);
  });

  it("streams Worker and Pod events through events(), in order, until the loop stops", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(answer("hello there"));
    const pod = await createPod();
    const seen: PodEvent["type"][] = [];
    const consumer = (async () => {
      for await (const event of pod.events()) {
        seen.push(event.type);
        if (event.type === "run_end") break;
      }
    })();
    await pod.run("@missing.txt hi");
    await consumer;
    expect(seen[0]).toBe("alert");
    expect(seen[1]).toBe("run_start");
    expect(seen).toContain("text_complete");
    expect(seen.at(-1)).toBe("run_end");
  });

  it("refuses a second run while one is going", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(answer("one"), answer("two"));
    const pod = await createPod();
    const first = pod.run("one");
    await expect(pod.run("two")).rejects.toThrow(/already running/);
    await expect(first).resolves.toMatchObject({ status: "finished" });
  });
});

describe("podDataDir", () => {
  it("lives in the XDG state directory, else ~/.local/state, keyed by the project's path", () => {
    const a = podDataDir("/work/app", { XDG_STATE_HOME: "/state", HOME: "/home/u" });
    expect(a).toMatch(/^\/state\/yoake\/projects\/app-[0-9a-f]{12}$/);
    expect(podDataDir("/work/app", { HOME: "/home/u" })).toMatch(
      /^\/home\/u\/\.local\/state\/yoake\/projects\/app-/,
    );
    expect(podDataDir("/other/app", { XDG_STATE_HOME: "/state" })).not.toBe(a);
    // A relative XDG_STATE_HOME is invalid per the spec, and ignored.
    expect(podDataDir("/work/app", { XDG_STATE_HOME: "state", HOME: "/h" })).toMatch(
      /^\/h\/\.local\/state\//,
    );
  });
});
