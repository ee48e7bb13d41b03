import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkRunSpec, RunSpecError, SUBMITTER_OVERRIDES } from "../src/index.js";
import {
  admitRun,
  hiddenFromRuns,
  podEnvironment,
  runOverrides,
  WORKER_OVERRIDES,
} from "../src/worker/run-confinement.js";

const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), "yoake-confinement-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const refusal = (spec: unknown): string => {
  try {
    checkRunSpec(spec);
  } catch (error) {
    expect(error).toBeInstanceOf(RunSpecError);
    return (error as Error).message;
  }
  throw new Error("the spec was accepted");
};

describe("what a submitter may ask for", () => {
  it("accepts every key SUBMITTER_OVERRIDES lists, and what --yes and --model set", () => {
    const overrides = Object.fromEntries(
      Object.entries(SUBMITTER_OVERRIDES).map(([table, keys]) => [
        table,
        Object.fromEntries(keys.map((key) => [key, 1])),
      ]),
    );
    const spec = { repo: "file:///r.git", prompt: "p", model: "anthropic/x", overrides };
    expect(checkRunSpec(spec)).toBe(spec);
    expect(
      checkRunSpec({ path: "/srv/x", prompt: "p", overrides: { tools: { approve: [] } } }),
    ).toBeDefined();
  });

  it("refuses hooks, MCP servers, a wider scope, a looser shell or web_fetch, another endpoint, and names each", () => {
    const message = refusal({
      repo: "file:///r.git",
      prompt: "p",
      overrides: {
        hooks: [{ event: "turn_end", command: "touch /tmp/x" }],
        mcp: [{ name: "s", command: "sh" }],
        scope: { allow: ["/"], deny: ["x"], secret_files: [], hard_links: true },
        shell: { sandbox: false, network: true, env: ["YOAKE_DATABASE_URL"], ask: false, unsandboxed: "ask" },
        model: { ref: "anthropic/x", base_url: "http://evil", api_key_env: "PGPASSWORD", scheme: "ollama" },
        web: { allow_hosts: ["*"], allow_local: true },
        later: {},
      },
    });
    for (const key of [
      "hooks",
      "mcp",
      "scope.allow",
      "scope.secret_files",
      "scope.hard_links",
      "shell.sandbox",
      "shell.network",
      "shell.env",
      "shell.ask",
      "shell.unsandboxed",
      "model.base_url",
      "model.api_key_env",
      "model.scheme",
      "web.allow_hosts",
      "web.allow_local",
      "later",
    ])
      expect(message).toContain(key);
    expect(message).not.toMatch(/scope\.deny[,;]/);
    expect(message).toMatch(/^refused run: its overrides set what a submitter may not: /);
  });

  it("refuses fields a run does not have, fields of the wrong kind, and a run with both or neither workspace", () => {
    expect(refusal(null)).toBe("a run spec must be a table");
    expect(refusal({ repo: "r", prompt: "p", constructor: 1, hook: "x" })).toMatch(
      /constructor is not a field of a run; hook is not a field of a run/,
    );
    expect(refusal({ repo: "r", prompt: 3, model: "x", timeoutSeconds: -1 })).toMatch(
      /prompt must be a non-empty string; model must be a catalogue model.*; timeoutSeconds must be a whole number/,
    );
    expect(refusal({ prompt: "p" })).toMatch(/needs a repository \(--repo\) or a shared path/);
    expect(refusal({ repo: "r", path: "/x", prompt: "p" })).toMatch(/not both/);
    expect(refusal({ path: "relative", prompt: "p" })).toMatch(/path must be an absolute path/);
    expect(refusal({ repo: "r", prompt: "p", overrides: { tools: "all" } })).toMatch(/may not: tools /);
  });
});

describe("what a worker gives a run", () => {
  it("puts the sandbox over the submitter's shell settings", () => {
    expect(
      runOverrides({ repo: "r", prompt: "p", model: "openai/m", overrides: { shell: { timeout_ms: 5 } } }),
    ).toEqual({ model: { ref: "openai/m" }, shell: { timeout_ms: 5, ...WORKER_OVERRIDES.shell } });
  });

  it("leaves the database, libpq, git and ssh variables and passwords out of the Pods' environment", () => {
    const env = podEnvironment({
      PATH: "/usr/bin",
      HOME: "/home/w",
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: "sk-provider",
      ANTHROPIC_BASE_URL: "https://api.example",
      YOAKE_DATABASE_URL: "postgres://yoake@db/yoake",
      DATABASE_URL: "postgres://app@db/app",
      PGPASSWORD: "hunter2",
      PGHOST: "/var/run/pg",
      pgpassfile: "/home/w/.pgpass",
      SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
      GIT_ASKPASS: "/usr/bin/askpass",
      GIT_CONFIG_COUNT: "1",
      REDIS: "redis://user:s3cret@cache:6379",
      BROKER: "host=db password=hunter2",
    });
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/w",
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: "sk-provider",
      ANTHROPIC_BASE_URL: "https://api.example",
    });
  });

  it("hides the home, the XDG directories, Yoake's state, the cache and every socket directory the database names", () => {
    const hidden = hiddenFromRuns({
      env: {
        HOME: "/home/w",
        XDG_STATE_HOME: "/state",
        XDG_CONFIG_HOME: "relative",
        PGHOST: "/pg/a,db.example",
      },
      cacheRoot: "/cache/repos",
      databaseUrl: "postgres://yoake@%2Fpg%2Fb/yoake?host=/pg/c&sslmode=disable",
      allowPaths: ["/srv/shared"],
    });
    for (const dir of [
      "/home/w",
      "/state",
      "/state/yoake",
      "/home/w/.config/yoake",
      "/cache/repos",
      "/srv/shared",
      "/pg/a",
      "/pg/b",
      "/pg/c",
      "/run/postgresql",
      "/var/run/postgresql",
    ])
      expect(hidden).toContain(dir);
    expect(hidden).not.toContain("relative");
    expect(hiddenFromRuns({ env: { HOME: "/" }, cacheRoot: "/c", databaseUrl: "host=/pg/d user=x" })).toEqual(
      expect.arrayContaining(["/c", "/pg/d"]),
    );
    expect(
      hiddenFromRuns({ env: { HOME: "/" }, cacheRoot: "/c", databaseUrl: "socket:/pg/e?db=x" }),
    ).not.toContain("/");
    expect(hiddenFromRuns({ env: {}, cacheRoot: "/c", databaseUrl: "socket:/pg/e?db=x" })).toContain("/pg/e");
  });

  it("runs a shared path only inside a directory it serves, by real path, and names the real path", async () => {
    const served = path.join(scratch, "served");
    const elsewhere = path.join(scratch, "elsewhere");
    mkdirSync(path.join(served, "app"), { recursive: true });
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(served, "escape"));
    symlinkSync(path.join(served, "app"), path.join(scratch, "link-to-app"));
    const spec = (dir: string) => ({ path: dir, prompt: "p" });
    await expect(admitRun(spec(path.join(served, "app")), [served])).resolves.toMatchObject({
      path: path.join(served, "app"),
    });
    await expect(admitRun(spec(path.join(scratch, "link-to-app")), [served])).resolves.toMatchObject({
      path: path.join(served, "app"),
    });
    await expect(admitRun(spec(path.join(served, "escape")), [served])).rejects.toThrow(
      /outside the directories this worker serves \(--allow-path\)/,
    );
    await expect(admitRun(spec(`${served}-twin`), [served])).rejects.toThrow(/does not exist here/);
    await expect(admitRun(spec(elsewhere), [])).rejects.toThrow(/runs no shared paths .*--allow-path <dir>/);
    await expect(
      admitRun({ repo: "r", prompt: "p", overrides: { hooks: [] } }, [served]),
    ).rejects.toBeInstanceOf(RunSpecError);
  });
});
