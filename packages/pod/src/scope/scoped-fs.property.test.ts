/**
 * Property: whatever the tree (files, directories, links inside → inside, inside → outside, chains,
 * dangling, loops), the rules and the path (`..`, `.`, absolute, through links), no read or write
 * that ScopedFs allows lands outside the allowed set.
 *
 * The check does not trust ScopedFs's own resolution: every file holds its own real path, so a
 * read proves which file it really read; a write leaves a unique token, which is searched for in
 * the whole tree afterwards without following links. The allowed set is computed by an oracle
 * written independently: a sync, component-by-component walk like the kernel's.
 */
import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Access, ScopeRule } from "./rules.js";
import { ScopeError } from "./scope-error.js";
import { ScopedFs } from "./scoped-fs.js";

type Place = "project" | "outside";
type NodeKind = "file" | "dir" | "link";
type OpKind = "read" | "write" | "readdir" | "stat";

interface TreeNode {
  place: Place;
  parts: string[];
  kind: NodeKind;
  target: { place: Place; parts: string[]; absolute: boolean };
}

interface RuleSpec {
  place: Place;
  parts: string[];
  access: Access;
  recursive: boolean;
}

interface Operation {
  kind: OpKind;
  /** When set, the path starts at this node of the tree (modulo the node count), else at `anchor`. */
  node: number | undefined;
  anchor: "relative" | "project" | "outside" | "base";
  segments: string[];
}

interface Case {
  nodes: TreeNode[];
  allow: RuleSpec[];
  deny: RuleSpec[];
  ops: Operation[];
}

const name = fc.constantFrom("a", "b", "c");
const place = fc.constantFrom<Place>("project", "project", "outside");
const nodeArb: fc.Arbitrary<TreeNode> = fc.record({
  place,
  parts: fc.array(name, { minLength: 1, maxLength: 3 }),
  kind: fc.constantFrom<NodeKind>("file", "file", "dir", "link", "link"),
  target: fc.record({ place, parts: fc.array(name, { maxLength: 3 }), absolute: fc.boolean() }),
});
const ruleArb: fc.Arbitrary<RuleSpec> = fc.record({
  place: fc.constantFrom<Place>("project", "project", "project", "outside"),
  // Rules on the root or one level down, so that the allowed set is often large enough to test.
  parts: fc.oneof(
    { weight: 3, arbitrary: fc.constant<string[]>([]) },
    { weight: 2, arbitrary: fc.array(name, { minLength: 1, maxLength: 2 }) },
  ),
  access: fc.constantFrom<Access>("read", "write"),
  recursive: fc.constantFrom(true, true, true, false),
});
/** Deny rules name something below the root: a deny on the root itself leaves nothing to test. */
const denyArb: fc.Arbitrary<RuleSpec> = fc.record({
  place: fc.constantFrom<Place>("project", "project", "project", "outside"),
  parts: fc.array(name, { minLength: 1, maxLength: 2 }),
  access: fc.constantFrom<Access>("read", "write"),
  recursive: fc.boolean(),
});
const segment = fc.constantFrom("a", "b", "c", "a", "b", "c", "..", ".");
const opArb: fc.Arbitrary<Operation> = fc.record({
  kind: fc.constantFrom<OpKind>("read", "read", "write", "write", "readdir", "stat"),
  // Two paths in three start at a node of the tree, so that many of them exist.
  node: fc.option(fc.nat(), { nil: undefined, freq: 3 }),
  anchor: fc.constantFrom<Operation["anchor"]>(
    "relative",
    "relative",
    "relative",
    "project",
    "outside",
    "base",
  ),
  segments: fc.oneof(
    { weight: 2, arbitrary: fc.constant<string[]>([]) },
    { weight: 3, arbitrary: fc.array(segment, { minLength: 1, maxLength: 4 }) },
  ),
});
const caseArb: fc.Arbitrary<Case> = fc.record({
  nodes: fc.array(nodeArb, { minLength: 1, maxLength: 14 }),
  allow: fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
  deny: fc.array(denyArb, { maxLength: 2 }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 12 }),
});

/**
 * A memory file system when there is one (Linux's /dev/shm): the same semantics for links, and
 * five times faster than a journaled disk, where building and removing thousands of trees and
 * the fsync of every write dominate. Elsewhere fewer trees keep the run under ~20 s.
 */
const memoryFs = canWrite("/dev/shm");
const CASES = memoryFs ? 2000 : 600;
const scratch = realpathSync(
  mkdtempSync(path.join(memoryFs ? "/dev/shm" : tmpdir(), "yoake-scope-property-")),
);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let caseNumber = 0;
/** Allowed operations per kind, and how many of them went through at least one link. */
const allowed = { read: 0, write: 0, readdir: 0, stat: 0, throughLinks: 0 };
let operationsTried = 0;
let refusalsChecked = 0;

describe.skipIf(process.platform === "win32")("ScopedFs property", () => {
  it(`never lets an allowed read or write land outside the allowed set (${CASES} random trees)`, async () => {
    await fc.assert(fc.asyncProperty(caseArb, checkCase), { numRuns: CASES });
    // The property is only as strong as the allowed operations it saw: make sure there were many.
    expect(operationsTried).toBeGreaterThan(CASES * 4);
    expect(allowed.read).toBeGreaterThan(CASES / 10);
    expect(allowed.write).toBeGreaterThan(CASES / 10);
    expect(allowed.throughLinks).toBeGreaterThan(CASES / 20);
    expect(refusalsChecked).toBeGreaterThan(CASES);
  }, 60_000);
});

async function checkCase(spec: Case): Promise<void> {
  caseNumber += 1;
  const base = path.join(scratch, String(caseNumber));
  const project = path.join(base, "project");
  const outside = path.join(base, "outside");
  mkdirSync(project, { recursive: true });
  mkdirSync(outside);
  try {
    // Sync on purpose: building and removing trees dominates the run time, and sync calls skip
    // the thread-pool round trip of each async one.
    for (const node of spec.nodes) createNode(base, node);
    const toRule = (rule: RuleSpec): ScopeRule => ({
      path: rule.place === "project" ? rule.parts.join("/") || "." : path.join(outside, ...rule.parts),
      access: rule.access,
      recursive: rule.recursive,
    });
    const allow = spec.allow.map(toRule);
    const deny = spec.deny.map(toRule);
    const oracle = new Oracle(project, allow, deny);
    const fs = await ScopedFs.create({ root: project, allow, deny });
    const written = new Map<string, string>();

    for (const [index, op] of spec.ops.entries()) {
      const requested = requestedPath(spec, op, base);
      const lexical = path.resolve(project, requested);
      operationsTried += 1;
      const viaLink = oracle.leadsElsewhere(lexical);
      switch (op.kind) {
        case "read": {
          const content = await fs.readFile(requested).catch((error: unknown) => {
            checkRefusal(error, oracle, lexical, "read");
            return undefined;
          });
          if (content === undefined) break;
          const realFile = content.startsWith("F:") ? content.slice(2) : written.get(content);
          if (realFile === undefined)
            throw new Error(`read of ${requested} returned unknown content ${content}`);
          oracle.assertAllowed(realFile, "read", requested);
          count("read", viaLink);
          break;
        }
        case "write": {
          const token = `W:${caseNumber}:${index}`;
          const directoriesBefore = listTree(base).directories;
          const result = await fs.writeFile(requested, token).catch((error: unknown) => {
            checkRefusal(error, oracle, lexical, "write");
            return undefined;
          });
          const after = listTree(base);
          for (const dir of after.directories) {
            if (!directoriesBefore.has(dir))
              oracle.assertAllowed(dir, "write", `${requested} (created directory)`);
          }
          const holders = after.files.filter((file) => readFileSync(file, "utf8") === token);
          if (result === undefined) {
            expect(holders, `failed write of ${requested} left its data behind`).toEqual([]);
            break;
          }
          expect(holders, `write of ${requested} must land in exactly one file`).toEqual([result]);
          oracle.assertAllowed(result, "write", requested);
          written.set(token, result);
          count("write", viaLink);
          break;
        }
        case "readdir": {
          const entries = await fs.readdir(requested).catch(() => undefined);
          if (entries === undefined) break;
          const realDir = oracle.resolve(lexical);
          oracle.assertAllowed(realDir, "read", requested);
          for (const entry of entries)
            oracle.assertAllowed(path.join(realDir, entry.name), "read", requested);
          count("readdir", viaLink);
          break;
        }
        case "stat": {
          const info = await fs.stat(requested).catch(() => undefined);
          if (info === undefined) break;
          expect(info.realPath).toBe(oracle.resolve(lexical));
          oracle.assertAllowed(info.realPath, "read", requested);
          count("stat", viaLink);
          break;
        }
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * The converse: a refusal of the target itself must be one the oracle agrees with, so the
 * property is not met by refusing everything.
 */
function checkRefusal(error: unknown, oracle: Oracle, lexical: string, access: Access): void {
  if (!(error instanceof ScopeError)) return;
  let real: string;
  try {
    real = oracle.resolve(lexical);
  } catch {
    return;
  }
  if (error.realPath !== real) return; // a parent directory the write needed, not the target
  refusalsChecked += 1;
  expect(oracle.allows(real, access), `${access} of ${real} was refused: ${error.message}`).toBe(false);
}

/** The path an operation asks for, as the model would write it: relative to the project or absolute. */
function requestedPath(spec: Case, op: Operation, base: string): string {
  const project = path.join(base, "project");
  const node = op.node === undefined ? undefined : spec.nodes[op.node % spec.nodes.length];
  let start: string;
  if (node === undefined) {
    start = op.anchor === "relative" ? "" : op.anchor === "base" ? base : path.join(base, op.anchor);
  } else if (op.anchor === "relative") {
    start = path.relative(project, path.join(base, node.place, ...node.parts));
  } else {
    start = path.join(base, node.place, ...node.parts);
  }
  const joined = path.join(start, ...op.segments);
  return joined === "" ? "." : joined;
}

function count(kind: OpKind, viaLink: boolean): void {
  allowed[kind] += 1;
  if (viaLink) allowed.throughLinks += 1;
}

/** Builds one node; skipped when its place is taken or a parent is not a real directory. */
function createNode(base: string, node: TreeNode): void {
  let directory = path.join(base, node.place);
  for (const part of node.parts.slice(0, -1)) {
    directory = path.join(directory, part);
    const stats = lstatOrUndefined(directory);
    if (stats === undefined) mkdirSync(directory);
    else if (!stats.isDirectory()) return;
  }
  const full = path.join(directory, node.parts.at(-1) ?? "");
  if (lstatOrUndefined(full) !== undefined) return;
  if (node.kind === "file") writeFileSync(full, `F:${full}`);
  else if (node.kind === "dir") mkdirSync(full);
  else {
    const target = path.join(base, node.target.place, ...node.target.parts);
    symlinkSync(node.target.absolute ? target : path.relative(directory, target) || ".", full);
  }
}

function canWrite(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/** Every real directory and regular file under `root`, links not followed. */
function listTree(root: string): { directories: Set<string>; files: string[] } {
  const directories = new Set<string>([root]);
  const files: string[] = [];
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        directories.add(full);
        pending.push(full);
      } else if (entry.isFile()) files.push(full);
    }
  }
  return { directories, files };
}

/** The allowed set, computed without any of ScopedFs's code. */
class Oracle {
  private readonly allow: { root: string; rule: ScopeRule }[];
  private readonly deny: { root: string; rule: ScopeRule }[];

  constructor(project: string, allow: ScopeRule[], deny: ScopeRule[]) {
    const root = (rule: ScopeRule) => {
      const lexical = path.resolve(project, rule.path);
      try {
        return { root: this.resolve(lexical), rule };
      } catch {
        return { root: lexical, rule }; // a link loop: the rule covers nothing real
      }
    };
    this.allow = allow.map(root);
    this.deny = deny.map(root);
  }

  /** Follows the path one name at a time like the kernel; names below a missing one are appended. */
  resolve(absolute: string): string {
    let pending = absolute.split("/").filter(Boolean);
    let current = "/";
    let links = 0;
    while (pending.length > 0) {
      const part = pending.shift() as string;
      if (part === ".") continue;
      if (part === "..") {
        current = path.dirname(current);
        continue;
      }
      const next = path.join(current, part);
      const stats = lstatOrUndefined(next);
      if (stats === undefined) return path.resolve(next, ...pending);
      if (!stats.isSymbolicLink()) {
        current = next;
        continue;
      }
      links += 1;
      if (links > 40) throw new Error(`oracle: link loop at ${next}`);
      const target = readlinkSync(next);
      if (target.startsWith("/")) current = "/";
      pending = [...target.split("/").filter(Boolean), ...pending];
    }
    return current;
  }

  /** Whether a link (or a loop of them) stands on the way. */
  leadsElsewhere(absolute: string): boolean {
    try {
      return this.resolve(absolute) !== absolute;
    } catch {
      return true;
    }
  }

  allows(realPath: string, access: Access): boolean {
    const covered = (entry: { root: string; rule: ScopeRule }) => {
      const relative = path.relative(entry.root, realPath);
      if (relative === "") return true;
      if (relative === ".." || relative.startsWith("../") || path.isAbsolute(relative)) return false;
      return entry.rule.recursive || !relative.includes("/");
    };
    const denied = this.deny.some(
      (entry) => (entry.rule.access === "read" || access === "write") && covered(entry),
    );
    const allowed = this.allow.some(
      (entry) => (entry.rule.access === "write" || access === "read") && covered(entry),
    );
    return allowed && !denied;
  }

  assertAllowed(realPath: string, access: Access, requested: string): void {
    if (!this.allows(realPath, access)) {
      throw new Error(
        `${access} of ${JSON.stringify(requested)} landed on ${realPath}, outside the allowed set ` +
          `(allow: ${JSON.stringify(this.allow)}, deny: ${JSON.stringify(this.deny)})`,
      );
    }
  }
}
