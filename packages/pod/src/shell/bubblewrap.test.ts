import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
});
