import { mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Content, JsonValue } from "../tool/tool-output.js";
import { type BlobId, type BlobStore, BlobStoreError, isBlobId, newBlobId, notFound } from "./blob-store.js";

const TEXT_EXTENSION = ".txt";
const JSON_EXTENSION = ".json";

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function ioError(action: string, id: string, error: unknown): BlobStoreError {
  const reason = error instanceof Error ? error.message : String(error);
  return new BlobStoreError("io", `could not ${action} blob ${id}: ${reason}`, { blobId: id, cause: error });
}

/**
 * A `BlobStore` in one flat directory (the seed's `blobs/`): `<dir>/<id>.txt` holds text content,
 * `<dir>/<id>.json` structured content. The directory is created on the first store.
 *
 * Writes are atomic: the blob is written to a temporary file in the same directory, flushed to
 * disk, then renamed to its real name, so after a crash a blob is either whole or absent. A
 * leftover temporary file (`<id>.txt.<random>.tmp`) is never read as a blob. Ids that are not
 * UUIDs are rejected before any path is made from them.
 */
export class FsBlobStore implements BlobStore {
  readonly dir: string;
  #ready: Promise<unknown> | undefined;

  constructor(dir: string) {
    this.dir = dir;
  }

  async store(content: Content): Promise<BlobId> {
    const id = newBlobId();
    const isText = content.kind === "text";
    const name = id + (isText ? TEXT_EXTENSION : JSON_EXTENSION);
    const data = isText ? content.text : JSON.stringify(content.value);
    const temporary = join(this.dir, `${name}.${crypto.randomUUID().slice(0, 12)}.tmp`);
    try {
      this.#ready ??= mkdir(this.dir, { recursive: true });
      await this.#ready;
      const file = await open(temporary, "wx");
      try {
        await file.writeFile(data, "utf8");
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, join(this.dir, name));
    } catch (error) {
      this.#ready = undefined;
      await unlink(temporary).catch(() => undefined);
      throw ioError("store", id, error);
    }
    await this.#syncDirectory();
    return id;
  }

  async load(id: BlobId): Promise<Content> {
    if (!isBlobId(id)) throw notFound(id);
    const base = join(this.dir, id.toLowerCase());
    const text = await this.#read(id, base + TEXT_EXTENSION);
    if (text !== undefined) return { kind: "text", text: decodeUtf8(id, text) };
    const json = await this.#read(id, base + JSON_EXTENSION);
    if (json === undefined) throw notFound(id);
    try {
      return { kind: "structured", value: JSON.parse(decodeUtf8(id, json)) as JsonValue };
    } catch (error) {
      if (error instanceof BlobStoreError) throw error;
      throw new BlobStoreError("corrupted", `blob ${id} is corrupted: its JSON does not parse (truncated?)`, {
        blobId: id,
        cause: error,
      });
    }
  }

  async exists(id: BlobId): Promise<boolean> {
    if (!isBlobId(id)) return false;
    const base = join(this.dir, id.toLowerCase());
    return (await this.#isFile(id, base + TEXT_EXTENSION)) || (await this.#isFile(id, base + JSON_EXTENSION));
  }

  async #read(id: string, path: string): Promise<Buffer | undefined> {
    try {
      return await readFile(path);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw ioError("load", id, error);
    }
  }

  async #isFile(id: string, path: string): Promise<boolean> {
    try {
      return (await stat(path)).isFile();
    } catch (error) {
      if (errorCode(error) === "ENOENT") return false;
      throw ioError("check", id, error);
    }
  }

  /**
   * Makes the rename itself durable. Best effort: some platforms (Windows) cannot open a
   * directory, and the blob is already whole under its name either way.
   */
  async #syncDirectory(): Promise<void> {
    try {
      const directory = await open(this.dir, "r");
      try {
        await directory.sync();
      } finally {
        await directory.close();
      }
    } catch {
      // The blob is whole; only its survival of a power cut is less certain.
    }
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(id: string, bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch (error) {
    throw new BlobStoreError("corrupted", `blob ${id} is corrupted: it is not valid UTF-8`, {
      blobId: id,
      cause: error,
    });
  }
}
