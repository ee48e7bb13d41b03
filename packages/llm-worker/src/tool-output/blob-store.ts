import type { Content } from "../tool/tool-output.js";
import { isUuid, uuidV7 } from "./uuid-v7.js";

/** A blob's id: a UUID v7 (time-ordered) as lowercase text, the `<id>` of `[blob:<id>]`. */
export type BlobId = string;

/**
 * Where stored tool outputs live (seed 000 `BlobStore`). Flat and independent of sessions: a
 * session refers to a blob only through the `[blob:<id>]` in a summary.
 */
export interface BlobStore {
  /** Keeps `content` under a new id; once this resolves, `load(id)` returns it. */
  store(content: Content): Promise<BlobId>;
  /** Rejects with a `BlobStoreError`: `not_found`, `corrupted` or `io`. */
  load(id: BlobId): Promise<Content>;
  /** False for ids that are not blob ids at all. */
  exists(id: BlobId): Promise<boolean>;
}

/**
 * Why a blob could not be read or written. `not_found`: no blob has this id (or it is not a UUID,
 * so none can). `corrupted`: the blob is there but unreadable (truncated JSON, invalid UTF-8).
 * `io`: the file system failed.
 */
export type BlobStoreErrorKind = "not_found" | "corrupted" | "io";

/** A blob that could not be read or written; `kind` says why, `blobId` which. */
export class BlobStoreError extends Error {
  readonly kind: BlobStoreErrorKind;
  readonly blobId?: string;

  constructor(kind: BlobStoreErrorKind, message: string, options?: { blobId?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "BlobStoreError";
    this.kind = kind;
    if (options?.blobId !== undefined) this.blobId = options.blobId;
  }
}

/** A fresh blob id (UUID v7: ids sort by creation time, so a directory listing is chronological). */
export function newBlobId(): BlobId {
  return uuidV7();
}

/** Whether `id` is a UUID: the only ids a store accepts, so none can name a path. */
export function isBlobId(id: string): boolean {
  return isUuid(id);
}

export function notFound(id: string): BlobStoreError {
  return isBlobId(id)
    ? new BlobStoreError("not_found", `no blob with id ${id}`, { blobId: id })
    : new BlobStoreError(
        "not_found",
        `${JSON.stringify(id.slice(0, 100))} is not a blob id (blob ids are UUIDs)`,
        {
          blobId: id,
        },
      );
}
