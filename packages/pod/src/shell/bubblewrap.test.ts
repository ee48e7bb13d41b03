import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScopeRule } from "../scope/rules.js";
import { compileBubblewrapArgs } from "./bubblewrap.js";

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

/** The mount options of the compiled arguments, as `kind path` strings, in order. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--bind" || arg === "--ro-bind")
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
      { network: false, hide: [] },
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

  it("shares the network only when allowed, and hides the session's socket directories either way", async () => {
    const run = path.join(base, "run-user");
    mkdirSync(run);
    const args = await compileBubblewrapArgs({ root, allow: [rule(".", "write")], deny: [] }, ".", {
      network: true,
      hide: [run],
    });
    expect(args).toContain("--share-net");
    expect(mounts(args)).toContain(`--tmpfs ${run}`);
    expect(mounts(args)).not.toContain("--tmpfs /run");
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
        { network: false, hide: [] },
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
      { network: false, hide: [home, cache] },
    );
    expect(mounts(args)).toEqual([
      "--ro-bind /",
      "--tmpfs /dev/shm",
      "--tmpfs /tmp",
      "--tmpfs /run",
      `--tmpfs ${home}`,
      `--tmpfs ${cache}`,
      `--ro-bind ${objects}`,
      `--bind ${tree}`,
      `--ro-bind ${tree}/.git`,
    ]);
    // Read-only once everything inside is bound, parents first (after /dev, read-only but for /dev/shm).
    const remounts = args.flatMap((arg, i) => (arg === "--remount-ro" ? [args[i + 1]] : []));
    expect(remounts).toEqual(["/dev", "/run", home, cache]);
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
