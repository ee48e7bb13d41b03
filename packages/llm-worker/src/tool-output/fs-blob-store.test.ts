import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FsBlobStore } from "./fs-blob-store.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "yoake-fs-blobs-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("FsBlobStore", () => {
  it("lays blobs out flat as <id>.txt and <id>.json, creating the directory", async () => {
    const dir = join(root, "blobs");
    const store = new FsBlobStore(dir);
    const text = await store.store({ kind: "text", text: "hello\n" });
    const json = await store.store({ kind: "structured", value: [1, { a: "b" }] });
    expect((await readdir(dir)).sort()).toEqual([`${text}.txt`, `${json}.json`].sort());
    expect(await readFile(join(dir, `${text}.txt`), "utf8")).toBe("hello\n");
    expect(JSON.parse(await readFile(join(dir, `${json}.json`), "utf8"))).toEqual([1, { a: "b" }]);
  });

  it("ignores a temporary file a crash left behind", async () => {
    const store = new FsBlobStore(root);
    const id = "01890a5d-ac96-774b-bcce-b302099a8057";
    // What a crash between write and rename leaves: the temporary name, never the real one.
    await writeFile(join(root, `${id}.json.0a1b2c3d4e5f.tmp`), '{"half":');
    expect(await store.exists(id)).toBe(false);
    await expect(store.load(id)).rejects.toMatchObject({ kind: "not_found" });
    // And the store keeps working beside it.
    const fresh = await store.store({ kind: "text", text: "ok" });
    expect(await store.load(fresh)).toEqual({ kind: "text", text: "ok" });
  });

  it("leaves no temporary file behind after a store", async () => {
    const store = new FsBlobStore(root);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.store({ kind: "text", text: `blob ${i}` })));
    const names = await readdir(root);
    expect(names).toHaveLength(20);
    expect(names.every((name) => name.endsWith(".txt"))).toBe(true);
  });

  it("reports a truncated JSON blob as corrupted", async () => {
    const store = new FsBlobStore(root);
    const id = await store.store({ kind: "structured", value: { rows: [1, 2, 3] } });
    const path = join(root, `${id}.json`);
    const whole = await readFile(path, "utf8");
    await writeFile(path, whole.slice(0, whole.length - 3));
    await expect(store.load(id)).rejects.toMatchObject({
      name: "BlobStoreError",
      kind: "corrupted",
      blobId: id,
      message: `blob ${id} is corrupted: its JSON does not parse (truncated?)`,
    });
  });

  it("reports a text blob that is not UTF-8 as corrupted", async () => {
    const store = new FsBlobStore(root);
    const id = await store.store({ kind: "text", text: "日本" });
    const path = join(root, `${id}.txt`);
    const bytes = await readFile(path);
    await writeFile(path, bytes.subarray(0, bytes.length - 1)); // cut inside the last character
    await expect(store.load(id)).rejects.toMatchObject({
      kind: "corrupted",
      message: `blob ${id} is corrupted: it is not valid UTF-8`,
    });
  });

  it("reports a file system failure as io", async () => {
    const notADirectory = join(root, "file");
    await writeFile(notADirectory, "");
    const store = new FsBlobStore(notADirectory);
    await expect(store.store({ kind: "text", text: "x" })).rejects.toMatchObject({
      kind: "io",
      message: expect.stringMatching(/^could not store blob [0-9a-f-]{36}: /),
    });
  });

  it("finds ids written in upper case", async () => {
    const store = new FsBlobStore(root);
    const id = await store.store({ kind: "text", text: "x" });
    expect(await store.load(id.toUpperCase())).toEqual({ kind: "text", text: "x" });
  });
});
