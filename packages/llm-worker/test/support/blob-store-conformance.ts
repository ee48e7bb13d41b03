import { version } from "uuid";
import { describe, expect, it } from "vitest";
import { type BlobStore, BlobStoreError } from "../../src/tool-output/blob-store.js";

/**
 * The BlobStore contract, which every store must keep (memory, files, PostgreSQL): run it with a
 * factory that gives each test a store.
 */
export function describeBlobStoreContract(name: string, make: () => Promise<BlobStore>): void {
  describe(name, () => {
    it("gives back what it stored, text and structured", async () => {
      const store = await make();
      const text = await store.store({ kind: "text", text: "line 1\n日本語 😀\n" });
      const value = { rows: [{ id: 1, name: null }], ok: true, ratio: 0.5 };
      const json = await store.store({ kind: "structured", value });
      expect(await store.load(text)).toEqual({ kind: "text", text: "line 1\n日本語 😀\n" });
      expect(await store.load(json)).toEqual({ kind: "structured", value });
      expect(await store.exists(text)).toBe(true);
      expect(await store.exists(json)).toBe(true);
    });

    it("names blobs with fresh, time-ordered UUID v7 ids", async () => {
      const store = await make();
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await store.store({ kind: "text", text: String(i) }));
      for (const id of ids) expect(version(id)).toBe(7);
      expect(new Set(ids).size).toBe(5);
      expect([...ids].sort()).toEqual(ids);
    });

    it("reports an unknown id as not_found", async () => {
      const store = await make();
      const id = "01890a5d-ac96-774b-bcce-b302099a8057";
      expect(await store.exists(id)).toBe(false);
      const error = await store.load(id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlobStoreError);
      expect(error).toMatchObject({ kind: "not_found", blobId: id, message: `no blob with id ${id}` });
    });

    it("rejects ids that are not UUIDs", async () => {
      const store = await make();
      for (const id of ["../../etc/passwd", "", "x.txt", "01890a5d-ac96-774b-bcce-b302099a8057/../x"]) {
        expect(await store.exists(id)).toBe(false);
        await expect(store.load(id)).rejects.toMatchObject({
          kind: "not_found",
          message: expect.stringMatching(/not a blob id/),
        });
      }
    });

    it("keeps its own copy of structured values", async () => {
      const store = await make();
      const value = { list: [1, 2] };
      const id = await store.store({ kind: "structured", value });
      value.list.push(3);
      const loaded = await store.load(id);
      expect(loaded).toEqual({ kind: "structured", value: { list: [1, 2] } });
    });
  });
}
