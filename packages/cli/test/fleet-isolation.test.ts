import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FleetClient, RunSpec } from "@yoake/fleet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runYoake, userTexts } from "./cli-test-kit.js";
import {
  type Attempt,
  attemptScript,
  connectAttempts,
  environmentAttempts,
  listAttempts,
  readAttempts,
  tallyAttempts,
} from "./support/escape-attempts.js";
import {
  ended,
  type FleetBed,
  startFleetBed,
  TURN_USAGE,
  waitForRun,
  writeFileReply,
} from "./support/fleet-bed.js";

/** In every secret this test plants: nothing a run delivers or a hook sees may contain it. */
const MARK = `zq${randomBytes(6).toString("hex")}`;
/**
 * What an environment must not show: the planted secrets, the database's URL, libpq's and ssh's
 * variables. (The sandbox's init, bwrap, shows in its command line which directories it hides,
 * `/run/postgresql` among them: names, not secrets.)
 */
const ENV_SECRETS = `${MARK}|postgres://|postgresql://|PGPASSWORD|SSH_AUTH_SOCK|DATABASE_URL`;

let bed: FleetBed;
let client: FleetClient;
/** The worker's URL: PostgreSQL's Unix socket, in a directory outside /tmp. */
let socketUrl: string;
let home: string;
let cacheRoot: string;
let sessionKey: string;
let hookEnvDir: string;
let secretOrigin: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
    stdio: "pipe",
  });

/** A repository with one commit holding `files`: bare (to clone) or a working tree (a shared path). */
async function makeRepository(dir: string, files: Record<string, string>, bare: boolean): Promise<void> {
  const work = bare ? `${dir}.seed` : dir;
  await mkdir(work, { recursive: true });
  git(work, "init", "--quiet", "--initial-branch=main");
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(work, name), content);
  git(work, "add", ".");
  git(work, "commit", "--quiet", "-m", "seed");
  if (bare) git(path.dirname(dir), "clone", "--quiet", "--bare", work, dir);
}

const bashReply = (id: string, command: string) => ({
  blocks: [{ type: "tool_call" as const, id, name: "bash", arguments: { command, timeout_ms: 300_000 } }],
  usage: TURN_USAGE,
});

beforeAll(async () => {
  // Outside /tmp, which every sandbox replaces with its own: here only the worker's hiding hides.
  bed = await startFleetBed({ parent: "/var/tmp" });
  ({ client } = await bed.database("isolation"));
  const { socketDirectory, port } = bed.cluster;
  socketUrl = `postgres://postgres@/isolation?host=${socketDirectory}&port=${port}`;
  home = bed.env.HOME as string;
  cacheRoot = path.join(home, ".cache", "yoake", "repos");
  sessionKey = path.join(bed.env.XDG_STATE_HOME as string, "yoake", "session-key");
  hookEnvDir = path.join(bed.scratch, "hook-env");
  await mkdir(hookEnvDir);
  // The worker's secrets: credential files in its home, variables in its environment.
  const planted: Record<string, string> = {
    ".ssh/id_ed25519": `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARK}-ssh\n`,
    ".ssh/config": `Host * # ${MARK}-ssh-config\n`,
    ".aws/credentials": `[default]\naws_secret_access_key = ${MARK}-aws\n`,
    ".netrc": `machine git.example login w password ${MARK}-netrc\n`,
    ".git-credentials": `https://w:${MARK}-git@git.example\n`,
    ".pgpass": `*:*:*:*:${MARK}-pgpass\n`,
    "config/gh/hosts.yml": `github.com:\n  oauth_token: ${MARK}-gh\n`,
    ".docker/config.json": `{"auths":{"registry.example":{"auth":"${MARK}-docker"}}}\n`,
  };
  for (const [name, content] of Object.entries(planted)) {
    await mkdir(path.dirname(path.join(home, name)), { recursive: true });
    await writeFile(path.join(home, name), content, { mode: 0o600 });
  }
  Object.assign(bed.env, {
    PGPASSWORD: `${MARK}-pgpassword`,
    DATABASE_URL: `postgres://app:${MARK}-dburl@db.example/app`,
    SSH_AUTH_SOCK: path.join(bed.scratch, `agent-${MARK}.sock`),
  });
  // The worker's own manifest runs a hook after every turn that writes down its environment.
  await mkdir(path.join(home, "config", "yoake"), { recursive: true });
  await writeFile(
    path.join(home, "config", "yoake", "manifest.toml"),
    `[[hooks]]\nevent = "turn_end"\ncommand = "env > ${hookEnvDir}/turn-$$.txt"\n`,
  );
  secretOrigin = path.join(bed.scratch, "secret.git");
  await makeRepository(secretOrigin, { "secret.txt": `${MARK}-mirror\n` }, true);
  bed.startWorker(socketUrl, "--concurrency", "2");
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

/** The text of every tool result the model was sent for `prompt` (its last request holds them all). */
function toolResults(prompt: string): string {
  const requests = bed.provider.requests.filter((request) => userTexts(request.body)[0] === prompt);
  const body = requests.at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  const texts: string[] = [];
  for (const message of body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown }>)
      if (block.type === "tool_result") texts.push(JSON.stringify(block.content));
  }
  return texts.join("\n");
}

describe("a fleet run's commands see its own tree only", () => {
  it("cannot read the worker's home, the session key, another repository's mirror, another run's tree or the database", async () => {
    // Another run, on another repository, stalls mid-run with a file in its tree.
    const victimPrompt = "create victim.txt";
    bed.replies.set(victimPrompt, [
      writeFileReply("toolu_victim", "victim.txt", `${MARK}-victim-tree\n`),
      { fault: "stall" },
    ]);
    await client.submit({
      repo: `file://${secretOrigin}`,
      prompt: victimPrompt,
      overrides: { tools: { approve: [] } },
    });
    for (;;) {
      const asked = bed.provider.requests.filter((request) => userTexts(request.body)[0] === victimPrompt);
      if (asked.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The targets are there, on the worker's disk.
    const under = (dir: string, inside: string) =>
      readdirSync(dir).filter((name) => existsSync(path.join(dir, name, inside)));
    expect(under(path.join(cacheRoot, "runs"), "repo/victim.txt")).toHaveLength(1);
    expect(under(cacheRoot, "packed-refs").length).toBeGreaterThan(0);
    expect(existsSync(sessionKey)).toBe(true);

    const { socketDirectory, port } = bed.cluster;
    const scripts = attackScripts({ socketDirectory, port });
    // The same attempts in a sandbox like the run's but without the worker's hiding, with the
    // worker's environment: they get what they are after (the attempts are real).
    const bare = runUnhidden(scripts);
    expect(bare.controlsFailed).toEqual([]);
    for (const category of [
      "read-ssh-key",
      "read-session-key",
      "read-mirror-refs",
      "read-victim-tree",
      "env-",
      "connect-unix",
    ])
      expect(
        bare.leaked.some((label) => label.startsWith(category)),
        category,
      ).toBe(true);

    const prompt = "create summary.txt";
    bed.replies.set(
      prompt,
      scripts.map((script, i) => bashReply(`toolu_attack_${i}`, script)),
    );
    const id = await client.submit({
      repo: `file://${bed.origin}`,
      prompt,
      overrides: { tools: { approve: [] } },
    });
    const run = await waitForRun(client, id, ended);
    expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
    const tally = tallyAttempts(toolResults(prompt));
    console.log(
      `fleet run escape attempts: ${tally.attempts} made, ${tally.leaks} got through (without the worker's hiding: ${bare.leaks} of ${bare.attempts})`,
    );
    expect(tally.leaked).toEqual([]);
    expect(tally.controlsFailed).toEqual([]);
    expect(tally.leaks).toBe(0);
    expect(tally.attempts).toBeGreaterThanOrEqual(300);

    // What the run delivered: its summary, no loot, no secret.
    const files = git(bed.origin, "ls-tree", "-r", "--name-only", `yoake/${id}`).trim().split("\n");
    expect(files).toContain("summary.txt");
    expect(files.filter((file) => file.startsWith("loot/"))).toEqual([]);
    expect(spawnSync("git", ["grep", "-a", "-I", MARK, `yoake/${id}`], { cwd: bed.origin }).status).toBe(1);
    const archive = execFileSync("git", ["archive", `yoake/${id}`], { cwd: bed.origin });
    const key = readFileSync(sessionKey);
    for (const form of [key, Buffer.from(key.toString("base64")), Buffer.from(key.toString("hex"))])
      expect(archive.includes(form)).toBe(false);

    // The worker's hook ran after each turn, and saw none of the worker's secrets either.
    const hookEnvs = readdirSync(hookEnvDir).map((name) => readFileSync(path.join(hookEnvDir, name), "utf8"));
    expect(hookEnvs.length).toBeGreaterThan(0);
    expect(hookEnvs.join("\n")).toContain("ANTHROPIC_BASE_URL=");
    for (const env of hookEnvs) expect(env).not.toMatch(new RegExp(ENV_SECRETS));
  }, 300_000);
});

/** The attack, in four `bash` calls: reads, listings, environments, connections. */
function attackScripts(db: { socketDirectory: string; port: number }): string[] {
  const state = path.dirname(sessionKey);
  // The cache names a mirror after its URL's hash. The object store of the run's own repository is
  // shown to it (git in its tree borrows from it): the other repository's mirror is the target.
  const otherHash = createHash("sha256").update(`file://${secretOrigin}`).digest("hex").slice(0, 24);
  const otherMirror = path.join(cacheRoot, `${otherHash}.git`);
  const reads = readAttempts({
    "ssh-key": `${home}/.ssh/id_ed25519`,
    "ssh-config": `${home}/.ssh/config`,
    aws: `${home}/.aws/credentials`,
    netrc: `${home}/.netrc`,
    "git-credentials": `${home}/.git-credentials`,
    pgpass: `${home}/.pgpass`,
    gh: `${home}/config/gh/hosts.yml`,
    "session-key": sessionKey,
    // Other spellings of the same files: through the cache's parents, through /proc.
    "session-key-dotdot": `${cacheRoot}/../../../state/yoake/session-key`,
    "ssh-key-proc-root": `/proc/self/root${home}/.ssh/id_ed25519`,
    docker: `${home}/.docker/config.json`,
    "yoake-manifest": `${home}/config/yoake/manifest.toml`,
    "mirror-refs": `${otherMirror}/packed-refs`,
    "mirror-pack": `${otherMirror}/objects/pack/*.pack`,
    "victim-tree": `${cacheRoot}/runs/*/repo/victim.txt`,
    "pg-pid": `${db.socketDirectory}/.s.PGSQL.${db.port}.lock`,
  });
  const gitReads: Attempt[] = [
    "show HEAD:secret.txt",
    "log -1",
    "cat-file -p HEAD",
    "ls-tree -r HEAD",
    "grep -a zq HEAD",
  ].map((command, i) => ({
    label: `read-mirror-git-${i}`,
    command: `for m in ${cacheRoot}/*.git; do git --git-dir="$m" ${command} && exit 0; done; exit 1`,
  }));
  gitReads.push({
    label: "read-mirror-clone",
    command: `for m in ${cacheRoot}/*.git; do git clone -q "file://$m" loot/clone-{n} && exit 0; done; exit 1`,
  });
  const listings = listAttempts({
    // Names of the planted files only: a listing of the home shows the run's own tree (its `.git/config`).
    home: { dir: home, expected: "id_ed25519|credentials|\\.netrc|\\.pgpass|hosts\\.yml|manifest\\.toml" },
    state: { dir: state, expected: "session-key" },
    cache: { dir: cacheRoot, expected: otherHash },
    runs: { dir: `${cacheRoot}/runs`, expected: "victim" },
    "pg-socket-dir": { dir: db.socketDirectory, expected: "PGSQL|data" },
  });
  const sockets = [
    `${db.socketDirectory}/.s.PGSQL.${db.port}`,
    `/var/tmp/yoake-pg-*/.s.PGSQL.*`,
    `/var/tmp/../var/tmp/yoake-pg-*/.s.PGSQL.*`,
    "/run/postgresql/.s.PGSQL.*",
    "/var/run/postgresql/.s.PGSQL.*",
    "/tmp/.s.PGSQL.*",
  ];
  const connects = connectAttempts({ sockets, port: db.port, database: "isolation" });
  const controls = ["cat README.md", "echo ok > own.txt", "git log -1"];
  let first = 1;
  return [[...reads, ...gitReads], listings, environmentAttempts(ENV_SECRETS), connects].map(
    (attempts, i, all) => {
      const script = attemptScript(attempts, controls, first);
      first += attempts.length;
      // The last one leaves what the run delivers: a summary (and whatever loot it got).
      return i === all.length - 1 ? `${script}\necho "attempts made" > summary.txt` : script;
    },
  );
}

/** Runs the scripts in bubblewrap as the run's sandbox has it, minus the worker's hiding. */
function runUnhidden(scripts: readonly string[]): ReturnType<typeof tallyAttempts> {
  const dir = path.join(bed.scratch, "unhidden");
  execFileSync("git", ["clone", "--quiet", `file://${bed.origin}`, dir], { stdio: "pipe" });
  let out = "";
  for (const script of scripts) {
    const result = spawnSync(
      "bwrap",
      [
        ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--bind", dir, dir],
        ...["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--chdir", dir],
        ...["--", "bash", "-c", script],
      ],
      { env: { ...bed.env, LANG: "C" } as NodeJS.ProcessEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    out += result.stdout;
  }
  return tallyAttempts(out);
}

describe("what a submitter, or whoever writes the database, can ask of a worker", () => {
  const marker = (name: string) => path.join(bed.scratch, `hook-ran-${name}`);
  const hookSpec = (): RunSpec => ({
    repo: `file://${bed.origin}`,
    prompt: "a run with a hook",
    overrides: { hooks: [{ event: "prompt_submit", command: `touch ${marker("hook")}` }] },
  });
  const unsandboxedSpec = (): RunSpec => ({
    repo: `file://${bed.origin}`,
    prompt: "a run without the sandbox",
    overrides: { shell: { sandbox: false, ask: false }, tools: { approve: [] } },
  });

  it("refuses a hook or a shell without the sandbox at submit, and at the worker when written straight into the database", async () => {
    await expect(client.submit(hookSpec())).rejects.toThrow(
      /^refused run: its overrides set what a submitter may not: hooks \(/,
    );
    await expect(client.submit(unsandboxedSpec())).rejects.toThrow(/may not: shell\.sandbox, shell\.ask \(/);
    bed.replies.set("a run without the sandbox", [bashReply("toolu_unsandboxed", `touch ${marker("bash")}`)]);
    const ids: string[] = [];
    for (const spec of [hookSpec(), unsandboxedSpec()]) {
      const id = randomUUID();
      await client.runs.insert(id, spec);
      await client.queue.send(id, undefined);
      ids.push(id);
    }
    const [hooked, unsandboxed] = await Promise.all(ids.map((id) => waitForRun(client, id, ended)));
    expect(hooked?.state).toBe("failed");
    expect(hooked?.result?.error).toMatch(
      /^refused run: its overrides set what a submitter may not: hooks \(/,
    );
    expect(unsandboxed?.state).toBe("failed");
    // The database keeps the spec as jsonb, which orders its keys its own way.
    expect(unsandboxed?.result?.error).toMatch(
      /may not: (shell\.sandbox, shell\.ask|shell\.ask, shell\.sandbox) \(/,
    );
    // Neither ran: no Pod, no request to the model, no hook, no command.
    expect(hooked?.sessionId).toBeUndefined();
    expect(
      bed.provider.requests.some((request) =>
        /a run with(out)? (a hook|the sandbox)/.test(userTexts(request.body)[0] ?? ""),
      ),
    ).toBe(false);
    expect(existsSync(marker("hook"))).toBe(false);
    expect(existsSync(marker("bash"))).toBe(false);
  }, 120_000);

  it("runs a --path run only inside the worker's --allow-path directories, and says so in yoake worker --help", async () => {
    const help = await runYoake(["worker", "--help"], { cwd: bed.scratch, env: bed.env });
    expect(help.stdout).toMatch(/--allow-path <dir>/);
    expect(help.stdout).toMatch(/--path runs are refused/);
    expect(help.stdout).toMatch(/Trust boundary/);

    const shared = (name: string) => path.join(bed.scratch, "shared", name, "app");
    for (const name of ["by-option", "by-variable", "not-allowed"])
      await makeRepository(shared(name), { "README.md": "# shared\n" }, false);
    const submit = async (dir: string, db = socketUrl) => {
      const out = await runYoake(
        ["submit", "--db", db, "--path", dir, "--yes", `create ${path.basename(path.dirname(dir))}.txt`],
        {
          cwd: bed.scratch,
          env: bed.env,
        },
      );
      expect(out.stderr).toBe("");
      return out.stdout.trim();
    };

    // The fleet's worker allows no path: the run is refused, the directory untouched.
    const refused = await waitForRun(client, await submit(shared("not-allowed")), ended);
    expect(refused.state).toBe("failed");
    expect(refused.result?.error).toMatch(
      /this worker runs no shared paths .*start it with --allow-path <dir>/,
    );
    expect(existsSync(path.join(shared("not-allowed"), "not-allowed.txt"))).toBe(false);

    // A worker of its own that serves two directories, one by option, one by variable.
    const { url, client: own } = await bed.database("paths");
    bed.env.YOAKE_WORKER_ALLOW_PATHS = path.dirname(shared("by-variable"));
    bed.startWorker(url, "--allow-path", path.dirname(shared("by-option")));
    delete bed.env.YOAKE_WORKER_ALLOW_PATHS;
    // Beside each shared path, inside the directory the worker serves: another one, out of sight.
    for (const name of ["by-option", "by-variable"]) {
      const sibling = path.join(path.dirname(shared(name)), "sibling", "notes.txt");
      await mkdir(path.dirname(sibling));
      await writeFile(sibling, `${MARK}-sibling\n`);
      const prompt = `create ${name}.txt`;
      bed.replies.set(prompt, [
        bashReply(`toolu_sibling_${name}`, attemptScript(readAttempts({ sibling }), ["cat README.md"])),
        writeFileReply(`toolu_write_${name}`, `${name}.txt`),
      ]);
      const id = await submit(shared(name), url);
      const run = await waitForRun(own, id, ended);
      expect(run.result).toMatchObject({ status: "finished", branch: `yoake/${id}` });
      expect(git(shared(name), "show", `yoake/${id}:${name}.txt`)).toBe(`made for ${name}.txt\n`);
      const tally = tallyAttempts(toolResults(prompt));
      expect(tally).toMatchObject({ attempts: 15, leaks: 0, controlsFailed: [] });
    }
    const outside = await waitForRun(own, await submit(shared("not-allowed"), url), ended);
    expect(outside.result?.error).toMatch(/outside the directories this worker serves \(--allow-path\)/);
  }, 120_000);
});
