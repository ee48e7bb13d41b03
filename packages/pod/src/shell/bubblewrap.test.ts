import { execFileSync } from "node:child_process";
import { once } from "node:events";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScopeRule } from "../scope/rules.js";
import { compileBubblewrapArgs } from "./bubblewrap.js";
import { hostReads, NO_HOST_READS } from "./host-reads.js";

/** Nothing hidden outside the scope: for the tests of the scope's own mounts. */

let root: string;
let base: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync("/var/tmp/yoake-bwrap-"));
  root = path.join(base, "project");
  for (const dir of [".git", ".yoake", "docs", "vendor", "secrets"])
    mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, ".env"), "KEY=1\n");
  mkdirSync(path.join(base, "real-out"));
  symlinkSync(path.join(base, "real-out"), path.join(root, "out"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const rule = (p: string, access: "read" | "write", recursive = true): ScopeRule => ({
  path: p,
  access,
  recursive,
});

/**
 * The mount options of the compiled arguments, as `kind path` strings, in order; without the
 * masks of the host's own Unix sockets (other tests' servers come and go), unless `sockets`.
 */
function mounts(args: string[], sockets = false): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const isHostSocket = args[i + 1] === "/dev/null" && lstatSync(args[i + 2] as string).isSocket();
    if ((arg === "--bind" || arg === "--ro-bind") && (sockets || !isHostSocket))
      out.push(`${arg} ${args[i + 2]}${args[i + 1] === "/dev/null" ? " (null)" : ""}`);
    if (arg === "--tmpfs") out.push(`--tmpfs ${args[i + 1]}`);
    if (arg === "--bind" || arg === "--ro-bind") i += 2;
  }
  return out;
}

describe("compileBubblewrapArgs", () => {
  it("binds write rules writable with .git and .yoake read-only, masks deny-read rules, and a deny always wins", async () => {
    const args = await compileBubblewrapArgs(
      {
        root,
        allow: [
          rule(".", "write"),
          rule("out", "write"),
          rule("docs", "write", false),
          rule("vendor", "write"),
        ],
        deny: [rule("vendor", "write"), rule("secrets", "read"), rule(".env", "read")],
      },
      "docs",
      { network: false, hide: [], reads: NO_HOST_READS },
    );
    expect(mounts(args)).toEqual([
      "--ro-bind /",
      "--tmpfs /dev/shm",
      "--tmpfs /tmp",
      "--tmpfs /run",
      `--bind ${root}`,
      // The rule names a link: its target is what is bound.
      `--bind ${base}/real-out`,
      `--ro-bind ${root}/.git`,
      `--ro-bind ${root}/.yoake`,
      `--ro-bind ${root}/vendor`,
      `--tmpfs ${root}/secrets`,
      `--ro-bind ${root}/.env (null)`,
    ]);
    expect(args).toContain("--unshare-all");
    expect(args).not.toContain("--share-net");
    expect(args.slice(-2)).toEqual(["--chdir", `${root}/docs`]);
  });

  it("shares the network only when allowed, and hides /run and the session's socket directories either way", async () => {
    const run = path.join(base, "run-user");
    mkdirSync(run);
    const args = await compileBubblewrapArgs({ root, allow: [rule(".", "write")], deny: [] }, ".", {
      network: true,
      hide: [run],
      reads: NO_HOST_READS,
    });
    expect(args).toContain("--share-net");
    expect(mounts(args)).toContain(`--tmpfs ${run}`);
    // /run holds the system's sockets (docker, dbus): hidden with the network too.
    expect(mounts(args)).toContain("--tmpfs /run");
  });

  it("does not hide again what is already hidden (bwrap could not make a mount point in a read-only tmpfs)", async () => {
    // As XDG_RUNTIME_DIR=/run/user/1000 under the hidden /run.
    const run = path.join(base, "run");
    mkdirSync(path.join(run, "user", "1000"), { recursive: true });
    const args = await compileBubblewrapArgs({ root, allow: [rule(".", "write")], deny: [] }, ".", {
      network: false,
      hide: [run, path.join(run, "user", "1000")],
      reads: NO_HOST_READS,
    });
    expect(mounts(args)).toContain(`--tmpfs ${run}`);
    expect(mounts(args).join("\n")).not.toContain(`${run}/user`);
  });

  it("shows again what the scope lets the agent read under the private /tmp", async () => {
    const tmpBase = realpathSync(mkdtempSync("/tmp/yoake-bwrap-"));
    const project = path.join(tmpBase, "project");
    mkdirSync(path.join(tmpBase, "docs"), { recursive: true });
    mkdirSync(project);
    try {
      const args = await compileBubblewrapArgs(
        {
          root: project,
          allow: [rule(".", "write"), rule("../docs", "read"), rule("../missing", "read")],
          deny: [],
        },
        ".",
        { network: false, hide: [], reads: NO_HOST_READS },
      );
      expect(mounts(args)).toEqual([
        "--ro-bind /",
        "--tmpfs /dev/shm",
        "--tmpfs /tmp",
        "--tmpfs /run",
        `--ro-bind ${tmpBase}/docs`,
        `--bind ${project}`,
      ]);
    } finally {
      rmSync(tmpBase, { recursive: true, force: true });
    }
  });

  it("hides a directory around the project and binds the project again on top, writable, with the rest empty", async () => {
    // A fleet worker's layout: the run's tree deep inside the hidden cache, itself inside the hidden home.
    const home = path.join(base, "home");
    const cache = path.join(home, ".cache", "repos");
    const tree = path.join(cache, "runs", "1-abc", "repo");
    mkdirSync(path.join(tree, ".git"), { recursive: true });
    mkdirSync(path.join(home, ".ssh"));
    writeFileSync(path.join(home, ".ssh", "id_ed25519"), "PRIVATE\n");
    mkdirSync(path.join(cache, "other.git"));
    writeFileSync(path.join(cache, "other.git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(path.join(tree, "README.md"), "# tree\n");
    // The object store the tree borrows, which the scope lets it read.
    const objects = path.join(cache, "borrowed.git", "objects");
    mkdirSync(path.join(objects, "ab"), { recursive: true });
    writeFileSync(path.join(objects, "ab", "cdef"), "object\n");
    const args = await compileBubblewrapArgs(
      { root: tree, allow: [rule(".", "write"), rule(objects, "read")], deny: [] },
      ".",
      { network: false, hide: [home, cache], reads: NO_HOST_READS },
    );
    expect(mounts(args)).toEqual([
      "--ro-bind /",
      "--tmpfs /dev/shm",
      "--tmpfs /tmp",
      "--tmpfs /run",
      // The cache is inside the hidden home already: not hidden twice.
      `--tmpfs ${home}`,
      `--ro-bind ${objects}`,
      `--bind ${tree}`,
      `--ro-bind ${tree}/.git`,
    ]);
    // Read-only once everything inside is bound, parents first (after /dev, read-only but for /dev/shm).
    const remounts = args.flatMap((arg, i) => (arg === "--remount-ro" ? [args[i + 1]] : []));
    expect(remounts).toEqual(["/dev", "/run", home]);
    expect(args.lastIndexOf("--remount-ro")).toBeGreaterThan(args.indexOf(`${tree}/.git`));

    const script = [
      "exec 2>/dev/null",
      "cat README.md",
      "echo made > made.txt && echo wrote",
      `cat ${home}/.ssh/id_ed25519 || echo no-key`,
      `echo $(ls -A ${cache})`,
      `cat ${objects}/ab/cdef`,
      `touch ${objects}/planted || echo objects-read-only`,
      `touch ${home}/planted || echo home-read-only`,
      "touch .git/planted || echo git-read-only",
    ].join("\n");
    const out = execFileSync("bwrap", [...args, "--", "sh", "-c", `${script} 2>/dev/null`], {
      encoding: "utf8",
    });
    expect(out.split("\n")).toEqual([
      "# tree",
      "wrote",
      "no-key",
      "borrowed.git runs",
      "object",
      "objects-read-only",
      "home-read-only",
      "git-read-only",
      "",
    ]);
    expect(readFileSync(path.join(tree, "made.txt"), "utf8")).toBe("made\n");
  });
});

describe("compileBubblewrapArgs outside the project", () => {
  /** Makes `relative` under `dir` with some content (a directory when it ends with "/"). */
  const make = (dir: string, ...relatives: string[]): void => {
    for (const relative of relatives) {
      const full = path.join(dir, relative);
      if (relative.endsWith("/")) mkdirSync(full, { recursive: true });
      else {
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, "secret\n");
      }
    }
  };
  const writeProject = (project: string) => ({ root: project, allow: [rule(".", "write")], deny: [] });

  it("hides the home wholesale and shows its toolchains again, the project under it writable", async () => {
    // The bed's base is the home: the project is under it.
    make(base, ".nvm/versions/node/bin/node", ".ssh/id_ed25519", ".local/bin/tool", "Documents/tax.pdf");
    const reads = await hostReads(root, [], { HOME: base });
    const args = await compileBubblewrapArgs(writeProject(root), ".", { network: false, hide: [], reads });
    const shown = mounts(args);
    // The password database's home (this process's) is hidden as well as $HOME.
    expect(shown).toEqual(
      expect.arrayContaining(["--tmpfs /run", `--tmpfs ${base}`, `--tmpfs ${homedir()}`]),
    );
    expect(shown.indexOf(`--ro-bind ${base}/.nvm`)).toBeGreaterThan(shown.indexOf(`--tmpfs ${base}`));
    expect(shown).toContain(`--ro-bind ${base}/.nvm`);
    expect(shown).toContain(`--ro-bind ${base}/.local/bin`);
    expect(shown.indexOf(`--bind ${root}`)).toBeGreaterThan(shown.indexOf(`--tmpfs ${base}`));
    // Hidden with the rest of the home: nothing to mask one by one.
    expect(shown.join("\n")).not.toMatch(/\.ssh|Documents/);
    // The home is made read-only only once everything inside it is mounted.
    const remounted = args.flatMap((arg, i) => (arg === "--remount-ro" ? [args[i + 1]] : []));
    expect(remounted).toContain(base);
    expect(args.lastIndexOf("--remount-ro")).toBeGreaterThan(args.lastIndexOf(`${base}/.local/bin`));
  });

  it("masks the credential stores and Yoake's files when the project contains the home", async () => {
    const home = path.join(root, "home");
    make(
      home,
      ".ssh/id_ed25519",
      ".aws/credentials",
      ".netrc",
      ".docker/config.json",
      ".config/gh/hosts.yml",
      ".config/yoake/manifest.toml",
      ".local/state/yoake/session-key",
      ".nvm/",
    );
    const reads = await hostReads(root, [], { HOME: home });
    const shown = mounts(
      await compileBubblewrapArgs(writeProject(root), ".", { network: false, hide: [], reads }),
    );
    expect(shown).not.toContain(`--tmpfs ${home}`);
    for (const dir of [".ssh", ".aws", ".config/gh", ".config/yoake", ".local/state/yoake"])
      expect(shown).toContain(`--tmpfs ${home}/${dir}`);
    for (const file of [".netrc", ".docker/config.json"])
      expect(shown).toContain(`--ro-bind ${home}/${file} (null)`);
    // Already in the writable project: shown as it is, not bound again read-only.
    expect(shown.join("\n")).not.toContain(".nvm");
    // Pinned, so that no command renames ~/.config away from the masks inside it.
    expect(shown).toContain(`--bind ${home}/.config`);
    expect(shown.indexOf(`--bind ${root}`)).toBeLessThan(shown.indexOf(`--tmpfs ${home}/.ssh`));
  });

  it("a broad reveal still masks the credential stores and the session key; one named shows", async () => {
    const home = path.join(base, "home");
    make(home, ".ssh/id_ed25519", ".ssh/known_hosts", ".aws/credentials", ".local/state/yoake/session-key");
    make(home, ".local/state/yoake/trust.json", ".gitconfig");
    const reveal = [home, path.join(home, ".ssh/known_hosts"), path.join(home, ".local/state/yoake")];
    const reads = await hostReads(root, reveal, { HOME: home });
    const shown = mounts(
      await compileBubblewrapArgs(writeProject(root), ".", { network: false, hide: [], reads }),
    );
    expect(shown).not.toContain(`--tmpfs ${home}`);
    expect(shown).toContain(`--tmpfs ${home}/.ssh`);
    expect(shown).toContain(`--tmpfs ${home}/.aws`);
    expect(shown.indexOf(`--ro-bind ${home}/.ssh/known_hosts`)).toBeGreaterThan(
      shown.indexOf(`--tmpfs ${home}/.ssh`),
    );
    // Named, so shown; but never the key.
    expect(shown).not.toContain(`--tmpfs ${home}/.local/state/yoake`);
    expect(shown).toContain(`--ro-bind ${home}/.local/state/yoake/session-key (null)`);
  });

  it("never hides / as a home nor binds the host's /, /proc or /dev; a reveal of a hidden directory shows it", async () => {
    const home = path.join(base, "home");
    const run = path.join(base, "run-user");
    make(home, ".ssh/id_ed25519");
    make(run, "yoake/pod.sock");
    const reads = await hostReads(root, ["/", "/proc/1", "/dev/shm", run], { HOME: "/" });
    const shown = mounts(
      await compileBubblewrapArgs(writeProject(root), ".", { network: false, hide: [run], reads }),
    );
    expect(shown.filter((m) => m === "--ro-bind /" || m === "--tmpfs /")).toEqual(["--ro-bind /"]);
    // The sandbox's own /proc and /dev stay (its /dev/shm is a tmpfs of its own).
    expect(shown.join("\n")).not.toMatch(/bind \/proc|bind \/dev/);
    // "/" reveals the home of this process too: its credential stores are masked instead.
    expect(shown).not.toContain(`--tmpfs ${homedir()}`);
    expect(shown).toContain(`--ro-bind ${run}`);
    expect(shown).not.toContain(`--tmpfs ${run}`);
  });

  it("masks Yoake's state outside the home, other projects' .yoake and this project's session logs", async () => {
    const state = path.join(base, "state");
    const other = path.join(base, "other");
    make(state, "yoake/session-key", "yoake/trust.json");
    make(other, ".yoake/sessions/old.jsonl");
    make(root, ".yoake/sessions/s1.jsonl");
    writeFileSync(
      path.join(state, "yoake", "trust.json"),
      JSON.stringify({
        version: 1,
        projects: { [other]: { decision: "trusted" }, [root]: { decision: "trusted" } },
      }),
    );
    const reads = await hostReads(root, [], { HOME: path.join(base, "home"), XDG_STATE_HOME: state });
    const shown = mounts(
      await compileBubblewrapArgs(writeProject(root), ".", { network: false, hide: [], reads }),
    );
    expect(shown).toContain(`--tmpfs ${state}/yoake`);
    expect(shown).toContain(`--tmpfs ${other}/.yoake`);
    expect(shown).toContain(`--tmpfs ${root}/.yoake/sessions`);
    expect(shown).not.toContain(`--tmpfs ${root}/.yoake`);
  });

  it("binds /dev/null over the host's Unix sockets outside the writable roots, and shows the resolver with the network", async () => {
    const outside = path.join(base, "pg");
    mkdirSync(outside);
    const servers = [path.join(outside, ".s.PGSQL.5432"), path.join(root, "dev.sock")].map((socket) =>
      createServer().listen(socket),
    );
    try {
      await Promise.all(servers.map((server) => once(server, "listening")));
      const reads = await hostReads(root, [], { HOME: path.join(base, "home") });
      const args = await compileBubblewrapArgs(writeProject(root), ".", { network: true, hide: [], reads });
      const shown = mounts(args, true);
      expect(shown).toContain(`--ro-bind ${outside}/.s.PGSQL.5432 (null)`);
      expect(shown.join("\n")).not.toContain("dev.sock");
      const resolver = realpathSync("/etc/resolv.conf");
      if (resolver.startsWith("/run/")) expect(shown).toContain(`--ro-bind ${resolver}`);
    } finally {
      for (const server of servers) server.close();
    }
  });
});
