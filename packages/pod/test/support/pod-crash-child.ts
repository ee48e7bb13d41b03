/**
 * The process the Pod crash test kills (not part of the library): a Pod on the project given as
 * its argument, talking to the test's mock provider, runs one prompt. It prints `session <id>`
 * once the Pod exists; the test SIGKILLs it in the middle of the run.
 *
 * Run with `node --import tsx pod-crash-child.ts <project> <base URL> <home> <state home>`.
 */
import { Pod } from "../../src/pod.js";

const [project, baseURL, home, stateHome] = process.argv.slice(2);
if (project === undefined || baseURL === undefined || home === undefined || stateHome === undefined) {
  process.stderr.write("usage: pod-crash-child.ts <project> <base URL> <home> <state home>\n");
  process.exit(2);
}

const pod = await Pod.create({
  cwd: project,
  env: { HOME: home, XDG_STATE_HOME: stateHome, PATH: process.env.PATH, MOCK_KEY: "child-key" },
  overrides: { model: { scheme: "anthropic", id: "mock-model", base_url: baseURL, api_key_env: "MOCK_KEY" } },
});
process.stdout.write(`session ${pod.sessionId}\n`);
const result = await pod.run("what does a.ts export?");
process.stdout.write(`ended ${result.status}\n`);
