import { describe, expect, it } from "vitest";
import { MemoryBlobStore } from "./memory-blob-store.js";
import { blobSources, recallFrom, recallReferences, referencesOf } from "./recall.js";

const source = (planted: string, at: number, total = 400): string =>
  Array.from({ length: total }, (_, i) => (i === at - 1 ? planted : `  retry.queue(${i});`)).join("\n");

async function storeWith(): Promise<{ store: MemoryBlobStore; ids: string[] }> {
  const store = new MemoryBlobStore();
  const ids = [
    await store.store({ kind: "text", text: source("export const MAX_INFLIGHT_LEASES = 4711;", 200) }),
    await store.store({
      kind: "structured",
      value: Array.from({ length: 50 }, (_, id) => ({ id, email: `user.${id * 1000 + 172}@mail.example` })),
    }),
    await store.store({
      kind: "structured",
      value: { cache_size_1: 3, lease_renewal_region: "ap-northeast-1c/7731", queue_depth_2: 9 },
    }),
  ];
  return { store, ids };
}

describe("recallFrom over blobSources", () => {
  it("shows each line, entry or key naming a term under the selector that reads it again", async () => {
    const { store, ids } = await storeWith();
    const recall = recallFrom(await blobSources(store, ids), [
      "MAX_INFLIGHT_LEASES",
      "31172",
      "lease_renewal_region",
    ]);
    expect(recall?.text.split("\n")).toEqual([
      "[recall] earlier tool outputs naming MAX_INFLIGHT_LEASES, 31172, lease_renewal_region (inspect a blob to read more):",
      `[blob:${ids[0]}] lines:199-201`,
      "199-   retry.queue(198);",
      "200: export const MAX_INFLIGHT_LEASES = 4711;",
      "201-   retry.queue(200);",
      `[blob:${ids[1]}] slice:31..32`,
      '  {"id":31,"email":"user.31172@mail.example"}',
      `[blob:${ids[2]}] key:lease_renewal_region`,
      '  "ap-northeast-1c/7731"',
    ]);
    expect(recall?.references).toEqual([
      `[blob:${ids[0]}] lines:199-201`,
      `[blob:${ids[1]}] slice:31..32`,
      `[blob:${ids[2]}] key:lease_renewal_region`,
    ]);
    expect(referencesOf(recall?.text ?? "")).toEqual(recall?.references);
    expect(recallReferences(recall?.references ?? [])).toBe(
      `[recall] shown earlier: [blob:${ids[0]}] lines:199-201, [blob:${ids[1]}] slice:31..32, [blob:${ids[2]}] key:lease_renewal_region`,
    );
  });

  it("is undefined when no term names anything, and leaves out a term that names too much", async () => {
    const { store, ids } = await storeWith();
    const sources = await blobSources(store, ids);
    expect(recallFrom(sources, ["NOT_THERE"])).toBeUndefined();
    // Every line of the source names retry.queue: no one thing.
    expect(recallFrom(sources, ["retry.queue"])).toBeUndefined();
  });

  it("stays within its byte budget and skips a blob that cannot be loaded", async () => {
    const { store, ids } = await storeWith();
    const missing = "01890000-0000-7000-8000-000000000000";
    const sources = await blobSources(store, [...ids, missing]);
    expect(sources.map((source) => source.label)).toEqual([...ids].reverse().map((id) => `blob:${id}`));
    const recall = recallFrom(sources, ["MAX_INFLIGHT_LEASES", "lease_renewal_region"], { maxBytes: 320 });
    expect(recall?.references).toEqual([`[blob:${ids[0]}] lines:199-201`]);
    expect(recall?.text).toMatch(/^\[recall\] earlier tool outputs naming MAX_INFLIGHT_LEASES \(/);
    expect(Buffer.byteLength(recall?.text ?? "")).toBeLessThanOrEqual(320);
  });
});
