/**
 * A scratch project and the mock provider for terminal UI tests on a real Pod, made fresh for
 * each test. Not a test file itself.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type MockProvider, startMockProvider } from "@yoake/llm-worker/testing";
import type { PodOptions } from "@yoake/pod";
import { afterEach, beforeEach, expect, vi } from "vitest";

export interface RealPodBed {
  mock: MockProvider;
  /** Options of a Pod on the project that talks to the mock (Anthropic's scheme). */
  options(session?: string): PodOptions;
}

/** Call at the top level of a test file. */
export function realPodTestbed(): () => RealPodBed {
  let base: string;
  let mock: MockProvider;
  beforeEach(async () => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-tui-pod-")));
    mkdirSync(path.join(base, "project", ".git"), { recursive: true });
    mock = await startMockProvider();
  });
  afterEach(async () => {
    await mock.close();
    rmSync(base, { recursive: true, force: true });
  });
  return () => ({
    mock,
    options: (session) => ({
      cwd: path.join(base, "project"),
      env: { HOME: path.join(base, "home"), XDG_STATE_HOME: path.join(base, "state"), KEY: "k" },
      overrides: {
        model: {
          scheme: "anthropic",
          id: "mock-model",
          base_url: mock.baseURLFor("anthropic"),
          api_key_env: "KEY",
        },
      },
      ...(session !== undefined && { session }),
    }),
  });
}

/** Waits (generously: CI is loaded) until the frame shows `text`. */
export const untilFrame = (frame: () => string | undefined, text: string) =>
  vi.waitFor(() => expect(frame()).toContain(text), { timeout: 30_000, interval: 10 });

/** A file list for the `@` picker when the test needs none. */
export const noFiles = async () => ({ paths: [], truncated: false });
