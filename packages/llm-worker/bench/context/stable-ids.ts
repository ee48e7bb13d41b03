import { type BlobStore, BlobStoreError, type Content } from "../../src/index.js";
import type { BlobId } from "../../src/internal.js";

/**
 * A BlobStore that shows numbered ids (still UUID-shaped) in front of a real store. Random UUID v7
 * ids tokenize to slightly different counts on every run; numbered ones make two runs that behave
 * alike count exactly alike, so a difference in the table is a difference in behaviour.
 */
export class StableIdBlobStore implements BlobStore {
  readonly #inner: BlobStore;
  readonly #ids = new Map<string, BlobId>();

  constructor(inner: BlobStore) {
    this.#inner = inner;
  }

  async store(content: Content): Promise<BlobId> {
    const real = await this.#inner.store(content);
    const id = `0190b2c4-7d1e-7000-8000-${(this.#ids.size + 1).toString(16).padStart(12, "0")}`;
    this.#ids.set(id, real);
    return id;
  }

  load(id: BlobId): Promise<Content> {
    const real = this.#ids.get(id.toLowerCase());
    if (real === undefined)
      return Promise.reject(new BlobStoreError("not_found", `no blob has id ${id}`, { blobId: id }));
    return this.#inner.load(real);
  }

  async exists(id: BlobId): Promise<boolean> {
    const real = this.#ids.get(id.toLowerCase());
    return real !== undefined && (await this.#inner.exists(real));
  }
}
