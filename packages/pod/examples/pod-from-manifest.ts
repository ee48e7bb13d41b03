/**
 * A Pod created from a manifest, offline: `npx tsx packages/pod/examples/pod-from-manifest.ts`.
 * The model is the llm-worker mock provider speaking Anthropic's wire format with a scripted
 * answer (no key, no network); with a real `[model]` in the manifest the Pod code stays the same.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startMockProvider } from "@yoake/llm-worker/testing";
import { Pod } from "@yoake/pod";

// The scripted model: it edits the file it was shown, then says so.
const mock = await startMockProvider();
mock.enqueue(
  {
    blocks: [
      {
        type: "tool_call",
        name: "edit_file",
        arguments: { path: "src/greet.ts", old_string: '"Helo"', new_string: '"Hello"' },
      },
    ],
  },
  { blocks: [{ type: "text", text: "Fixed the typo in the greeting." }] },
);

// A throwaway project whose manifest points at the mock.
const base = mkdtempSync(path.join(tmpdir(), "yoake-example-"));
const project = path.join(base, "project");
mkdirSync(path.join(project, ".yoake"), { recursive: true });
mkdirSync(path.join(project, "src"));
writeFileSync(path.join(project, "src/greet.ts"), 'export const greet = () => "Helo";\n');
writeFileSync(
  path.join(project, ".yoake/manifest.toml"),
  `[model]
scheme = "anthropic"
id = "claude-sonnet-4-5"
base_url = "${mock.baseURLFor("anthropic")}"
api_key_env = "EXAMPLE_KEY"
`,
);
const env = {
  ...process.env,
  EXAMPLE_KEY: "not-needed-for-the-mock",
  XDG_STATE_HOME: path.join(base, "state"),
};

// The Pod: manifest cascade, scope, file tools, approvals, hooks.
// This script wrote the project's manifest itself: it trusts it (a user is asked, see "Project trust").
const pod = await Pod.create({ cwd: project, env, projectTrust: "trust-once" });
pod.on("alert", (alert) => console.log(`[${alert.level}] ${alert.message}`));
pod.on("text_delta", (event) => process.stdout.write(event.text));

let result = await pod.run("Fix the typo in @src/greet.ts");
while (result.permissionRequest) {
  const { id, tool, preview } = result.permissionRequest;
  console.log(`${tool} asks to change:\n${preview?.ok ? preview.diff : preview?.message}`);
  result = await pod.respond(id, "allow_once");
}
console.log(`\n[${result.status}]`);

await mock.close();
rmSync(base, { recursive: true, force: true });
