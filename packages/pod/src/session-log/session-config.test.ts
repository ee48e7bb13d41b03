import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testKey } from "../../test/support/session-test-config.js";
import { loadManifest } from "../manifest/load.js";
import { restoreSessionFile } from "../restore/restore.js";
import { sessionConfigFromManifest } from "./session-config.js";
import { createSession } from "./sessions.js";

let home: string;
let project: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "yoake-home-"));
  project = join(home, "repo");
  await mkdir(join(project, ".yoake"), { recursive: true });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("sessionConfigFromManifest", () => {
  it("records the model, scope and manifest sources of a real manifest, and no key", async () => {
    await writeFile(
      join(project, ".yoake", "manifest.toml"),
      [
        "[model]",
        'scheme = "gemini"',
        'id = "gemini-3-pro"',
        'base_url = "https://gateway.example/v1beta?key=AIzaSECRET"',
        'api_key_env = "MY_GATEWAY_KEY"',
        "context_window = 1000000",
        "",
      ].join("\n"),
    );
    const manifest = await loadManifest({ cwd: project, env: { HOME: home }, projectTrust: "trust-once" });
    const config = sessionConfigFromManifest(manifest, project);
    expect(config.model).toEqual({
      scheme: "gemini",
      id: "gemini-3-pro",
      baseURL: "https://gateway.example/v1beta?key=AIzaSECRET",
      contextWindow: 1_000_000,
    });
    expect(config.manifestSources.map((source) => source.kind)).toEqual(["defaults", "user", "project"]);

    const log = await createSession(project, { config }, { key: testKey });
    await log.close();
    const text = await readFile(log.path, "utf8");
    expect(text).not.toContain("SECRET");
    expect(text).not.toContain("MY_GATEWAY_KEY");
    const { start } = await restoreSessionFile(log.path, testKey);
    expect(start.config.model.baseURL).toBe("https://gateway.example/v1beta");
    expect(start.config.scope.allow.map((rule) => rule.path)).toContain(".");
    expect(start.redacted).toEqual(["model.baseURL?key"]);
  });
});
