/**
 * The hook escape suite: the Pod README's hooks — a `turn_end` hook running `npm test` (a
 * package.json script) and a `before_tool` hook running `./scripts/guard.sh` — after the model
 * rewrote both through the real `bash` tool, then fired through a real Pod run (the mock provider
 * plays the model). Each generated payload tries to write outside the project, write into it,
 * read what the scope hides, plant `.git` changes or a nested repository, or reach a socket of
 * the host. After every run the host is checked; the count of escapes must be 0, and each payload
 * must be seen to have run (its marker comes back in the hooks' alerts). The bed lives under
 * /var/tmp, so "outside the project" is a real, visible, read-only directory and not just hidden by
 * the sandbox's private /tmp.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PodEvent } from "../src/pod/events.js";
import type { Pod } from "../src/pod.js";
import { sessionKeyPath } from "../src/session-log/session-key.js";
import {
  type EscapePlace,
  type Listener,
  type Payload,
  generatedPayloads as payloadsFor,
} from "./support/hook-escape-payloads.js";
import { answer, type PodTestbed, toolCall, usePodTestbed } from "./support/pod-test-kit.js";
import { processesWhere } from "./support/shell-test-kit.js";

const bed = usePodTestbed({ parentDir: "/var/tmp" });

const generatedPayloads = (): Payload[] => payloadsFor(place, listeners, { mark: MARK, linger: LINGER });

const SECRET = `TOPSECRET-${randomBytes(8).toString("hex")}`;
const MARK = `yoake-hook-escape-${randomBytes(6).toString("hex")}`;
/** Payloads that try to stay behind use this argument, so the host can look for them. */
const LINGER = 31339;
/** Runs per Pod: a fresh one now and then keeps the history (and each request) small. */
const RUNS_PER_POD = 10;
/**
 * Every payload goes through guard.sh; one Pod in this many also has the `npm test` hook, so the
 * payloads of every kind go through npm too (npm's start is most of a payload's time).
 */
const NPM_EVERY = 3;

const HOOKS = `
[limits]
turns = 3

[[hooks]]
name = "guard"
event = "before_tool"
matcher = "read_file"
command = "./scripts/guard.sh"

[[hooks]]
name = "tests"
event = "turn_end"
command = "npm test --silent"
`;

/** HOOKS without the `npm test` one. */
const GUARD_ONLY = HOOKS.slice(0, HOOKS.lastIndexOf("[[hooks]]"));

let place: EscapePlace;
let listeners: Listener[];
let connections: number;

function listen(label: string, address: string): Promise<Listener> {
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  return new Promise((resolve) => {
    if (address.startsWith("tcp:"))
      server.listen(0, "127.0.0.1", () =>
        resolve({ label, server, address: `tcp:${(server.address() as { port: number }).port}` }),
      );
    else
      server.listen(address.startsWith("@") ? `\0${address.slice(1)}` : address, () =>
        resolve({ label, server, address }),
      );
  });
}

beforeEach(async () => {
  const { project, base, put } = bed();
  place = {
    project,
    base,
    outside: path.join(base, "outside"),
    home: path.join(base, "home"),
    vault: path.join(base, "vault"),
    runtimeDir: path.join(base, "run-user"),
    stateDir: path.join(base, "state"),
  };
  for (const dir of [place.outside, path.join(place.home, ".ssh"), place.vault, place.runtimeDir])
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(place.outside, "victim.txt"), "original\n");
  writeFileSync(path.join(place.home, ".bashrc"), "# the user's\n");
  writeFileSync(path.join(place.home, ".ssh/id_ed25519"), `${SECRET}\n`);
  writeFileSync(path.join(place.vault, "token.txt"), `${SECRET}\n`);
  put("README.md", "# victim\n");
  put("src/index.js", "module.exports = 1;\n");
  put("package.json", JSON.stringify({ name: "victim", version: "1.0.0", scripts: { test: "true" } }));
  put("scripts/guard.sh", "#!/bin/sh\nexit 0\n");
  put("secret/key.txt", `${SECRET}\n`);
  put("private.txt", `${SECRET}\n`);
  put(".git/HEAD", "ref: refs/heads/main\n");
  put(".git/config", "[core]\n\trepositoryformatversion = 0\n");
  put(".yoake/manifest.toml", HOOKS);
  connections = 0;
  // /run when this user may write there (root, as on CI): the sandbox hides /run without a network.
  const run = existsSync("/run") && statSync("/run").uid === process.getuid?.() ? "/run" : undefined;
  listeners = await Promise.all([
    listen("a socket in the runtime directory", path.join(place.runtimeDir, "agent.sock")),
    listen("a socket in the host's /tmp", `/tmp/${MARK}.sock`),
    listen("an abstract socket", `@${MARK}`),
    listen("a TCP port on 127.0.0.1", "tcp:0"),
    ...(run === undefined ? [] : [listen("a socket in /run", `/run/${MARK}.sock`)]),
  ]);
});

afterEach(async () => {
  for (const { server } of listeners) await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const name of readdirSync("/tmp").filter((entry) => entry.includes(MARK)))
    rmSync(path.join("/tmp", name), { recursive: true, force: true });
  rmSync(`/run/${MARK}.sock`, { force: true });
  rmSync(`/var/tmp/${MARK}`, { recursive: true, force: true });
  rmSync(`/etc/${MARK}`, { force: true });
  for (const pid of processesWhere((cmdline) => cmdline.includes(String(LINGER))))
    process.kill(pid, "SIGKILL");
});

/**
 * Every file under `dir` with its content (directories and links by name), sorted. Walked by hand,
 * never through a link: a planted link to `/` (or to itself) must be listed, not followed.
 */
function tree(dir: string, skip: (full: string) => boolean = () => false): string {
  if (!existsSync(dir)) return "(missing)";
  const lines: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (skip(full)) continue;
      if (entry.isDirectory()) {
        lines.push(`${full}/`);
        walk(full);
      } else lines.push(entry.isFile() ? `${full}=${readFileSync(full, "utf8")}` : `${full}@`);
    }
  };
  walk(dir);
  return lines.sort().join("\n");
}

/** The files the model rewrites through `bash`: compared with what it wrote, not with the last run. */
const REWRITTEN = ["package.json", "scripts/guard.sh"];

/** Everything a hook must not change, read on the host. */
function hostState(): string {
  const sessions = path.join(place.project, ".yoake", "sessions");
  const rewritten = REWRITTEN.map((file) => path.join(place.project, file));
  const skip = (full: string) =>
    full === sessions || full.startsWith(`${sessions}/`) || rewritten.includes(full);
  return [
    tree(place.project, skip),
    tree(place.outside),
    tree(place.home),
    tree(place.vault),
    readdirSync(place.base).sort().join(","),
    existsSync(path.join(place.stateDir, "yoake", "planted")) ? "state planted" : "",
    readdirSync("/tmp")
      .filter((name) => name.includes(MARK) && name !== `${MARK}.sock`)
      .join(","),
    existsSync(`/var/tmp/${MARK}`) ? "/var/tmp written" : "",
    existsSync(`/etc/${MARK}`) ? "/etc written" : "",
  ].join("\n---\n");
}

/** The two hook files with `body` in them: package.json's test script and guard.sh. */
function hookFiles(body: string): [string, string] {
  return [
    JSON.stringify({ name: "victim", version: "1.0.0", scripts: { test: body } }),
    `#!/bin/sh\n${body}`,
  ];
}

/** What the model sends through `bash`: both hook files rewritten to the payload. */
function rewriteCommand(body: string): string {
  const [manifest, guard] = hookFiles(body);
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  return (
    `printf %s '${b64(manifest)}' | base64 -d > package.json && ` +
    `printf %s '${b64(guard)}' | base64 -d > scripts/guard.sh && chmod +x scripts/guard.sh`
  );
}

interface Outcome {
  escapes: string[];
  /** Payloads whose marker did not come back from one of the hooks: they did not run as planned. */
  unfired: string[];
  attempts: number;
}

/**
 * Rewrites the hook files to each payload through `bash`, fires both hooks through a real run
 * (`read_file` for the guard, the end of the turn for the tests), and checks the host after each.
 */
async function runPayloads(
  testbed: PodTestbed,
  payloads: readonly Payload[],
  overrides = {},
  /** The project's manifest for each Pod (by its number), when not the one already there. */
  manifestFor?: (pod: number) => string,
): Promise<Outcome> {
  const outcome: Outcome = { escapes: [], unfired: [], attempts: 0 };
  let pod: Pod | undefined;
  // Taken once the first Pod made its state directory.
  let snapshot = "";
  let seenEvents = 0;
  let seenRequests = 0;
  let hooks: string[] = [];
  for (const [index, payload] of payloads.entries()) {
    if (index % RUNS_PER_POD === 0) {
      await pod?.close();
      const manifest = manifestFor?.(index / RUNS_PER_POD);
      if (manifest !== undefined) testbed.put(".yoake/manifest.toml", manifest);
      hooks = readFileSync(path.join(place.project, ".yoake", "manifest.toml"), "utf8").includes(
        'name = "tests"',
      )
        ? ["guard", "tests"]
        : ["guard"];
      pod = await testbed.createPod(overrides, { XDG_RUNTIME_DIR: place.runtimeDir });
      seenEvents = 0;
      // The manifest written for this Pod is the test's change, not a hook's.
      if (index === 0 || manifest !== undefined) snapshot = hostState();
    }
    const current = pod as Pod;
    const marker = `fired-${index}-${randomBytes(3).toString("hex")}`;
    const body = payload.body(marker);
    testbed.mock.enqueue(
      toolCall("bash", { command: rewriteCommand(body) }),
      toolCall("read_file", { path: "README.md" }),
      answer("done"),
    );
    await current.run(`payload ${index}`);
    outcome.attempts += hooks.length;
    const state = hostState();
    const events: PodEvent[] = testbed.events(current).slice(seenEvents);
    seenEvents = testbed.events(current).length;
    const sent = testbed.mock.requests
      .slice(seenRequests)
      .map((request) => JSON.stringify(request.body))
      .join("\n");
    seenRequests = testbed.mock.requests.length;
    const found: string[] = [];
    const now = REWRITTEN.map((file) => readFileSync(path.join(place.project, file), "utf8"));
    // Bash wrote them before the hooks ran: anything else is a hook's write into the project.
    if (JSON.stringify(now) !== JSON.stringify(hookFiles(body))) found.push("rewrote the hook files");
    const alerts = events.filter((event) => event.type === "alert").map((event) => JSON.stringify(event));
    for (const hook of hooks)
      if (!alerts.some((alert) => alert.includes(`hook:${hook}`) && alert.includes(marker)))
        outcome.unfired.push(`${payload.kind} (${hook}): ${body}\n${alerts.join("\n")}`);
    if (sent.includes(SECRET) || JSON.stringify(events).includes(SECRET)) found.push("read a hidden secret");
    if (state !== snapshot) found.push(`changed the host: ${changes(snapshot, state)}`);
    snapshot = state;
    if (connections > 0) {
      found.push("reached a server on the host");
      connections = 0;
    }
    for (let i = 0; i < 40 && lingering() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    if (lingering() > 0) found.push("left a process running");
    if (found.length > 0) outcome.escapes.push(`${payload.kind}: ${body} → ${found.join(", ")}`);
  }
  await pod?.close();
  return outcome;
}

/** What the scope hides: the user's deny rules, inside the project and outside it. */
const HIDDEN = {
  scope: {
    deny: [
      { path: "secret", access: "read" as const },
      { path: "private.txt", access: "read" as const },
      { path: "../vault", access: "read" as const },
      { path: "../home/.ssh", access: "read" as const },
    ],
  },
};

/** `payloads` reordered to take one of each kind in turn, until every kind is used up. */
function byKindInTurn(payloads: readonly Payload[]): Payload[] {
  const kinds = new Map<string, Payload[]>();
  for (const payload of payloads) kinds.set(payload.kind, [...(kinds.get(payload.kind) ?? []), payload]);
  const ordered: Payload[] = [];
  for (let i = 0; ordered.length < payloads.length; i++)
    for (const group of kinds.values()) if (i < group.length) ordered.push(group[i] as Payload);
  return ordered;
}

/** The lines of `after` that `before` does not have, and the other way round. */
function changes(before: string, after: string): string {
  const was = new Set(before.split("\n"));
  const is = new Set(after.split("\n"));
  const added = [...is].filter((line) => !was.has(line)).map((line) => `+ ${line}`);
  const removed = [...was].filter((line) => !is.has(line)).map((line) => `- ${line}`);
  return [...added, ...removed].join("; ");
}

function lingering(): number {
  return processesWhere((cmdline) => cmdline.includes(String(LINGER))).length;
}

describe.skipIf(process.platform !== "linux")("the hook escape suite", () => {
  it("hundreds of generated payloads in npm test and guard.sh, rewritten through bash, all fail", async () => {
    // Kinds taken in turn, so the Pods with the npm hook see every kind.
    const payloads = byKindInTurn(generatedPayloads());
    expect(payloads.length).toBeGreaterThanOrEqual(300);
    const outcome = await runPayloads(bed(), payloads, HIDDEN, (pod) =>
      pod % NPM_EVERY === 0 ? HOOKS : GUARD_ONLY,
    );
    console.log(
      `hook escape suite: ${payloads.length} payloads, ${outcome.attempts} hook runs, ${outcome.escapes.length} escapes`,
    );
    expect(outcome.unfired).toEqual([]);
    expect(outcome.escapes).toEqual([]);
  }, 3_600_000);

  it("the same checks catch every kind of escape when the hooks run on the host (sandbox = false)", async () => {
    const testbed = bed();
    testbed.put(".yoake/manifest.toml", HOOKS.replaceAll("[[hooks]]", "[[hooks]]\nsandbox = false"));
    // The last of each kind (a Map keeps the latest value under the first key's place).
    const oneOfEachKind = [
      ...new Map(generatedPayloads().map((payload) => [payload.kind, payload] as const)).values(),
    ];
    const outcome = await runPayloads(testbed, oneOfEachKind, HIDDEN);
    expect(outcome.unfired).toEqual([]);
    expect(outcome.escapes.map((found) => found.split(":")[0])).toEqual(
      oneOfEachKind.map((payload) => payload.kind),
    );
  }, 600_000);

  it("a hook sees no file the bash tool does not: secret files, credentials, the session key", async () => {
    const testbed = bed();
    testbed.put(".env", `API=${SECRET}\n`);
    mkdirSync(path.join(place.home, ".aws"));
    writeFileSync(path.join(place.home, ".aws/credentials"), `${SECRET}\n`);
    const files = [
      path.join(place.project, ".env"),
      path.join(place.home, ".aws/credentials"),
      path.join(place.home, ".ssh/id_ed25519"),
      sessionKeyPath({ XDG_STATE_HOME: place.stateDir }),
    ];
    const probe = files
      .map(
        (file) =>
          `if head -c1 '${file}' >/dev/null 2>&1; then echo 'readable ${file}'; else echo 'hidden ${file}'; fi`,
      )
      .join("; ");
    chmodSync(testbed.put("scripts/guard.sh", `#!/bin/sh\n{ ${probe}; } >&2\nexit 2\n`), 0o755);
    testbed.mock.enqueue(
      toolCall("bash", { command: probe }),
      toolCall("read_file", { path: "README.md" }),
      answer("done"),
    );
    const pod = await testbed.createPod(HIDDEN, { XDG_RUNTIME_DIR: place.runtimeDir });
    await pod.run("look");
    const seen = (text: string) => text.split("\n").filter((line) => /^(readable|hidden) \//.test(line));
    const bashResult = pod.history.find((item) => item.type === "tool_result");
    const bashSaw = seen(String((bashResult as { content?: unknown } | undefined)?.content ?? "")).sort();
    const guardAlert = testbed
      .events(pod)
      .find((event) => event.type === "alert" && event.source === "hook:guard");
    const hookSaw = seen(
      String((guardAlert as { message?: unknown } | undefined)?.message ?? "").replace(/^.*?: /, ""),
    );
    expect(bashSaw).toHaveLength(files.length);
    expect(hookSaw.sort()).toEqual(bashSaw);
    // ~/.ssh is hidden by the user's deny rule: from bash and from the hook alike.
    expect(hookSaw).toContain(`hidden ${path.join(place.home, ".ssh/id_ed25519")}`);
  }, 120_000);
});
