import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The write must reach disk under a temporary name and only then be renamed: make the rename
// fail (as a crash at that moment would stop it) and check that no blob exists under its id.
const failRename = vi.hoisted(() => ({ on: false }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    rename: async (from: string, to: string) => {
      if (failRename.on) throw Object.assign(new Error("EIO: simulated failure, rename"), { code: "EIO" });
      return actual.rename(from, to);
    },
  };
});

const { FsBlobStore } = await import("./fs-blob-store.js");

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "yoake-atomic-"));
});
afterEach(async () => {
  failRename.on = false;
  await rm(root, { recursive: true, force: true });
});

describe("FsBlobStore atomic writes", () => {
  it("leaves neither a blob nor a temporary file when the rename fails", async () => {
    const store = new FsBlobStore(root);
    failRename.on = true;
    const error = await store
      .store({ kind: "structured", value: { big: "x".repeat(100_000) } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "io", message: expect.stringMatching(/simulated failure/) });
    const id = (error as { blobId: string }).blobId;
    expect(await readdir(root)).toEqual([]);
    expect(await store.exists(id)).toBe(false);
  });

  it("writes whole blobs once the rename works again", async () => {
    const store = new FsBlobStore(root);
    failRename.on = true;
    await store.store({ kind: "text", text: "lost" }).catch(() => undefined);
    failRename.on = false;
    const id = await store.store({ kind: "text", text: "kept" });
    expect(await readdir(root)).toEqual([`${id}.txt`]);
  });
});
