import type { Content } from "../tool/tool-output.js";
import { type BlobId, type BlobStore, isBlobId, newBlobId, notFound } from "./blob-store.js";

/**
 * A `BlobStore` in memory, for tests and for embedders who keep nothing on disk. It holds its own
 * copy of structured values, so a tool that mutates its result afterwards (or a caller that
 * mutates a loaded value) cannot change the blob.
 */
export class MemoryBlobStore implements BlobStore {
  readonly #blobs = new Map<BlobId, Content>();

  /** How many blobs it holds. */
  get size(): number {
    return this.#blobs.size;
  }

  async store(content: Content): Promise<BlobId> {
    const id = newBlobId();
    this.#blobs.set(id, copy(content));
    return id;
  }

  async load(id: BlobId): Promise<Content> {
    const content = isBlobId(id) ? this.#blobs.get(id.toLowerCase()) : undefined;
    if (content === undefined) throw notFound(id);
    return copy(content);
  }

  async exists(id: BlobId): Promise<boolean> {
    return isBlobId(id) && this.#blobs.has(id.toLowerCase());
  }
}

function copy(content: Content): Content {
  return content.kind === "text" ? content : { kind: "structured", value: structuredClone(content.value) };
}
