/**
 * The process the Pod crash test kills (not part of the library): a Pod on the project given as
 * its argument, talking to the test's mock provider, runs one prompt. It prints `session <id>`
 * once the Pod exists; the test SIGKILLs it in the middle of the run. With `hang`, the Pod also has
 * a tool `hang` that prints `tool started` and never finishes, so the kill can land inside a call.
 *
 * Run with `node --import tsx pod-crash-child.ts <project> <base URL> <home> <state home> [hang]`.
 */
import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import { Pod } from "../../src/pod.js";

const [project, baseURL, home, stateHome, mode] = process.argv.slice(2);
if (project === undefined || baseURL === undefined || home === undefined || stateHome === undefined) {
  process.stderr.write("usage: pod-crash-child.ts <project> <base URL> <home> <state home> [hang]\n");
  process.exit(2);
}

const hang = tool({
  name: "hang",
  description: "Never finishes",
  input: z.object({}),
  execute: () => {
    process.stdout.write("tool started\n");
    return new Promise<string>(() => undefined);
  },
}) as Tool;

const pod = await Pod.create({
  cwd: project,
  env: { HOME: home, XDG_STATE_HOME: stateHome, PATH: process.env.PATH, MOCK_KEY: "child-key" },
  overrides: { model: { scheme: "anthropic", id: "mock-model", base_url: baseURL, api_key_env: "MOCK_KEY" } },
  ...(mode === "hang" && { tools: [hang] }),
});
process.stdout.write(`session ${pod.sessionId}\n`);
const result = await pod.run("what does a.ts export?");
process.stdout.write(`ended ${result.status}\n`);
