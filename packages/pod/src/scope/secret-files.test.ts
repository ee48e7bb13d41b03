import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadManifest } from "../manifest/load.js";
import { ScopeError } from "./scope-error.js";
import { ScopedFs } from "./scoped-fs.js";

let base: string;
let project: string;

function put(relative: string, content: string): void {
  const file = path.join(project, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const env = () => ({ HOME: path.join(base, "home"), XDG_CONFIG_HOME: path.join(base, "config") });

async function scopedFs(): Promise<ScopedFs> {
  return ScopedFs.create((await loadManifest({ cwd: project, env: env() })).scope);
}

async function refusalOf(promise: Promise<unknown>): Promise<ScopeError> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(ScopeError);
  return thrown as ScopeError;
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-secret-files-")));
  project = path.join(base, "project");
  mkdirSync(path.join(project, ".git"), { recursive: true });
  put("README.md", "readme\n");
  put(".env", "ANTHROPIC_API_KEY=sk-secret\n");
  put("app/.env.production", "DB_PASSWORD=hunter2\n");
  put("deploy/server.pem", "-----BEGIN PRIVATE KEY-----\n");
  put("deploy/tls.KEY", "key\n");
  put("home/.ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  put("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("default secret files", () => {
  it("refuses to read .env, .env.*, private keys and key files in any directory", async () => {
    const fs = await scopedFs();
    expect(await fs.readFile("README.md")).toBe("readme\n");
    for (const secret of [
      ".env",
      "app/.env.production",
      "deploy/server.pem",
      "deploy/tls.KEY",
      "home/.ssh/id_ed25519",
      "home/.ssh/id_rsa",
    ]) {
      const error = await refusalOf(fs.readFile(secret));
      expect(error.refusal.reason).toBe("secret");
      expect(error.message).toContain("is a secret file");
      expect(error.message).toContain("scope.secret_files, from defaults");
    }
  });

  it("refuses writes too, and a link with an innocent name that leads to one", async () => {
    symlinkSync(".env", path.join(project, "notes.txt"));
    const fs = await scopedFs();
    expect((await refusalOf(fs.readFile("notes.txt"))).refusal.reason).toBe("secret");
    expect((await refusalOf(fs.writeFile(".env.local", "X=1\n"))).refusal.reason).toBe("secret");
  });

  it("leaves them out of directory listings", async () => {
    const fs = await scopedFs();
    const names = (await fs.readdir("deploy")).map((entry) => entry.name);
    expect(names).toEqual([]);
    expect((await fs.readdir(".")).map((entry) => entry.name)).not.toContain(".env");
  });

  it("are the user's to change: a trusted manifest's list replaces the default one", async () => {
    put("../config/yoake/manifest.toml", '[scope]\nsecret_files = ["*.pem"]\n');
    const fs = await scopedFs();
    expect(await fs.readFile(".env")).toContain("sk-secret");
    const error = await refusalOf(fs.readFile("deploy/server.pem"));
    expect(error.message).toContain(
      `scope.secret_files, from ${path.join(base, "config/yoake/manifest.toml")}`,
    );
  });
});
