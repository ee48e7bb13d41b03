/**
 * Pods on a real project and the mock provider, created with session and compaction options, as
 * the session tests need them. Not a test file itself.
 */
import path from "node:path";
import type { ManifestLayerInput } from "../../src/manifest/schema.js";
import type { PodEvent } from "../../src/pod/events.js";
import { Pod, type PodOptions } from "../../src/pod.js";
import type { LogEntry } from "../../src/session-log/entry.js";
import { readSessionLog } from "../../src/session-log/read.js";
import { loadSessionKey } from "../../src/session-log/session-key.js";
import { sessionsDir } from "../../src/session-log/sessions.js";
import { type PodTestbed, usePodTestbed } from "./pod-test-kit.js";

/** The API key the test Pods use: it must never reach a session log. */
export const SECRET_KEY = "sk-yoake-test-0123456789-SECRET";

export interface SessionTestbed extends PodTestbed {
  /** The environment every Pod of the test gets (home, state, the key). */
  env: Record<string, string | undefined>;
  /** A Pod on the project, talking to the mock; its events are recorded from creation on. */
  open(
    options?: Omit<PodOptions, "cwd" | "env" | "overrides"> & { overrides?: ManifestLayerInput },
  ): Promise<Pod>;
  /** Every event `pod` emitted, in order. */
  eventsOf(pod: Pod): PodEvent[];
  /** The verified entries of session `id` of the project. */
  entries(id: string): Promise<LogEntry[]>;
  /** The path of session `id`'s log. */
  logPath(id: string): string;
  /** The JSON body of the `n`th request the mock received (negative: from the end). */
  body(n: number): { messages: { role: string; content: unknown }[] } & Record<string, unknown>;
}

/** Call at the top level of a test file: a fresh project and mock provider per test. */
export function useSessionTestbed(): () => SessionTestbed {
  const bed = usePodTestbed();
  const recorded = new WeakMap<Pod, PodEvent[]>();
  return () => {
    const base = bed();
    const env = {
      HOME: path.join(base.base, "home"),
      XDG_STATE_HOME: path.join(base.base, "state"),
      PATH: process.env.PATH,
      MOCK_KEY: SECRET_KEY,
    };
    const logPath = (id: string): string => path.join(sessionsDir(base.project), `${id}.jsonl`);
    return {
      ...base,
      env,
      open: async ({ overrides = {}, ...options } = {}) => {
        const pod = await Pod.create({
          cwd: base.project,
          env,
          overrides: {
            ...overrides,
            model: {
              scheme: "anthropic",
              id: "mock-model",
              base_url: base.mock.baseURLFor("anthropic"),
              api_key_env: "MOCK_KEY",
              ...overrides.model,
            },
          },
          ...options,
        });
        const events: PodEvent[] = [];
        pod.listen((event) => events.push(event));
        recorded.set(pod, events);
        return pod;
      },
      eventsOf: (pod) => recorded.get(pod) ?? [],
      entries: async (id) => (await readSessionLog(logPath(id), await loadSessionKey(env))).entries,
      logPath,
      body: (n) => {
        const request = base.mock.requests.at(n);
        if (request === undefined) throw new Error(`the mock received ${base.mock.requests.length} requests`);
        return request.body as ReturnType<SessionTestbed["body"]>;
      },
    };
  };
}
