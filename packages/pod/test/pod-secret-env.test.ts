/**
 * What the manifest's hooks and MCP servers see of the user's environment, through a real Pod:
 * real child processes that write their environment to a file.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Pod } from "../src/pod.js";
import { eventually } from "./support/mcp-test-servers.js";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

function podEnv(): Record<string, string | undefined> {
  const { base } = bed();
  return {
    PATH: process.env.PATH,
    HOME: path.join(base, "home"),
    XDG_STATE_HOME: path.join(base, "state"),
    MY_LLM: "model-key-value",
    ANTHROPIC_API_KEY: "sk-ant-user-key",
    GITHUB_TOKEN: "ghp-user-token",
    PLAIN_SETTING: "visible",
  };
}

async function createPod(): Promise<Pod> {
  const { project, mock } = bed();
  return Pod.create({
    cwd: project,
    env: podEnv(),
    projectTrust: "trust-once",
    overrides: {
      model: {
        scheme: "anthropic",
        id: "mock-model",
        base_url: mock.baseURLFor("anthropic"),
        api_key_env: "MY_LLM",
      },
    },
  });
}

describe.skipIf(process.platform === "win32")("the environment of hooks and MCP servers", () => {
  it("a hook gets no key, token or the model's key variable, unless its entry passes it", async () => {
    const { put, mock, base } = bed();
    const plain = path.join(base, "plain.env");
    const passing = path.join(base, "passing.env");
    put(
      ".yoake/manifest.toml",
      // On the host (sandbox = false): they write what they were given outside the project.
      `[[hooks]]\nevent = "prompt_submit"\nsandbox = false\ncommand = "env > '${plain}'"\n` +
        `[[hooks]]\nevent = "prompt_submit"\nsandbox = false\ncommand = "env > '${passing}'"\npass_env = ["GITHUB_TOKEN"]\n`,
    );
    mock.enqueue(answer("ok"));
    const pod = await createPod();
    try {
      await pod.run("hello");
    } finally {
      await pod.close();
    }
    const seen = readFileSync(plain, "utf8");
    expect(seen).toContain("PLAIN_SETTING=visible");
    expect(seen).not.toContain("sk-ant-user-key");
    expect(seen).not.toContain("ghp-user-token");
    expect(seen).not.toContain("model-key-value");
    const passed = readFileSync(passing, "utf8");
    expect(passed).toContain("GITHUB_TOKEN=ghp-user-token");
    expect(passed).not.toContain("sk-ant-user-key");
  });

  it("an MCP server gets a minimal environment plus what its entry passes by name", async () => {
    const { put, base } = bed();
    const dump = path.join(base, "mcp.env");
    put(
      ".yoake/manifest.toml",
      `[[mcp]]\nname = "dumper"\ncommand = "sh"\nargs = ["-c", "env > '${dump}'"]\npass_env = ["GITHUB_TOKEN"]\nstartup_timeout_ms = 2000\n`,
    );
    const pod = await createPod();
    try {
      await eventually(() => existsSync(dump) && readFileSync(dump, "utf8").includes("PATH="));
    } finally {
      await pod.close();
    }
    const seen = readFileSync(dump, "utf8");
    expect(seen).toContain("GITHUB_TOKEN=ghp-user-token");
    expect(seen).not.toContain("sk-ant-user-key");
    expect(seen).not.toContain("model-key-value");
    expect(seen).not.toContain("PLAIN_SETTING");
  });
});

describe("secret files through a real Pod", () => {
  it("an @.env reference and read_file of a key never reach the provider", async () => {
    const { put, createPod, mock, sent } = bed();
    put(".env", "ANTHROPIC_API_KEY=sk-ant-in-dotenv\n");
    put("deploy/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY----- private-bytes\n");
    mock.enqueue(toolCall("read_file", { path: "deploy/id_ed25519" }), answer("I cannot see them."));
    const pod = await createPod();
    try {
      const result = await pod.run("what is in @.env ?");
      expect(result.status).toBe("finished");
    } finally {
      await pod.close();
    }
    for (const n of [0, 1]) {
      expect(sent(n)).not.toContain("sk-ant-in-dotenv");
      expect(sent(n)).not.toContain("private-bytes");
    }
    expect(sent(1)).toContain("is a secret file");
  });
});
