/**
 * Shared pieces of the Pod tests: a real project in a temporary directory, the mock provider over
 * HTTP, and a Pod created from a manifest that points at it. Not a test file itself.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, type ScriptedResponse, startMockProvider } from "@yoake/llm-worker/testing";
import { afterEach, beforeEach } from "vitest";
import type { ManifestLayerInput } from "../../src/manifest/schema.js";
import type { ProjectTrustPolicy } from "../../src/manifest/trust-gate.js";
import type { PodEvent } from "../../src/pod/events.js";
import { Pod } from "../../src/pod.js";

export interface PodTestbed {
  /** The project root (holds `.git`). */
  project: string;
  /** Outside the project: home, state, and files the scope must not reach. */
  base: string;
  mock: MockProvider;
  /** Writes a file of the project, making its directories. */
  put(relative: string, content: string | Uint8Array): string;
  /**
   * A Pod on the project, talking to the mock, with the given overrides on top (and `env` over its
   * environment); the project's manifest is trusted unless `projectTrust` says otherwise.
   */
  createPod(
    overrides?: ManifestLayerInput,
    env?: Record<string, string>,
    projectTrust?: ProjectTrustPolicy,
  ): Promise<Pod>;
  /** Every event the Pod emitted, in order (recorded from creation on). */
  events(pod: Pod): PodEvent[];
  /** The JSON text of the `n`th request the mock received. */
  sent(n: number): string;
}

/**
 * Call at the top level of a test file: a fresh project and mock provider per test, in a
 * temporary directory under `parentDir` (default: the system's).
 */
export function usePodTestbed(options: { parentDir?: string } = {}): () => PodTestbed {
  let bed: PodTestbed | undefined;
  const recorded = new WeakMap<Pod, PodEvent[]>();
  /** Closed after each test: a Pod a test left open holds its session log's file and its shell. */
  const pods = new Set<Pod>();
  beforeEach(async () => {
    const base = realpathSync(mkdtempSync(path.join(options.parentDir ?? tmpdir(), "yoake-pod-")));
    const project = path.join(base, "project");
    mkdirSync(path.join(project, ".git"), { recursive: true });
    const mock = await startMockProvider();
    const put = (relative: string, content: string | Uint8Array): string => {
      const file = path.join(project, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    };
    bed = {
      project,
      base,
      mock,
      put,
      createPod: async (overrides = {}, extraEnv = {}, projectTrust = "trust-once") => {
        const pod = await Pod.create({
          cwd: project,
          // The tests write the project's manifest themselves.
          projectTrust,
          env: {
            HOME: path.join(base, "home"),
            XDG_STATE_HOME: path.join(base, "state"),
            PATH: process.env.PATH,
            MOCK_KEY: "test-key",
            ...extraEnv,
          },
          overrides: {
            model: {
              scheme: "anthropic",
              id: "mock-model",
              base_url: mock.baseURLFor("anthropic"),
              api_key_env: "MOCK_KEY",
            },
            ...overrides,
          },
        });
        const events: PodEvent[] = [];
        pod.listen((event) => events.push(event));
        recorded.set(pod, events);
        pods.add(pod);
        return pod;
      },
      events: (pod) => recorded.get(pod) ?? [],
      sent: (n) => {
        const request = mock.requests[n];
        if (request === undefined) throw new Error(`the mock received ${mock.requests.length} requests`);
        return JSON.stringify(request.body);
      },
    };
  });
  afterEach(async () => {
    await Promise.allSettled([...pods].map((pod) => pod.close()));
    pods.clear();
    await bed?.mock.close();
    if (bed) rmSync(bed.base, { recursive: true, force: true });
    bed = undefined;
  });
  return () => {
    if (bed === undefined) throw new Error("the testbed exists only inside a test");
    return bed;
  };
}

export const answer = (text: string): ScriptedResponse => ({ blocks: [{ type: "text", text }] });

export const toolCall = (name: string, args: unknown, id?: string): ScriptedResponse => ({
  blocks: [{ type: "tool_call", name, arguments: args, ...(id !== undefined && { id }) }],
});
