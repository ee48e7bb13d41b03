import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { describeBlobStoreContract } from "../../test/support/blob-store-conformance.js";
import type { BlobStore } from "./blob-store.js";
import { FsBlobStore } from "./fs-blob-store.js";
import { MemoryBlobStore } from "./memory-blob-store.js";

const directories: string[] = [];
afterAll(async () => {
  for (const dir of directories) await rm(dir, { recursive: true, force: true });
});

async function fsStore(): Promise<BlobStore> {
  const dir = await mkdtemp(join(tmpdir(), "yoake-blobs-"));
  directories.push(dir);
  return new FsBlobStore(join(dir, "blobs"));
}

describeBlobStoreContract("MemoryBlobStore", async () => new MemoryBlobStore());
describeBlobStoreContract("FsBlobStore", fsStore);
