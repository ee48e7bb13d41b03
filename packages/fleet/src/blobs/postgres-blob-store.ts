import { type BlobStore, BlobStoreError, type Content } from "@yoake/llm-worker";
import { type BlobId, blobNotFoundError, isBlobId, newBlobId } from "@yoake/llm-worker/internal";
import type { FleetDatabase } from "../database/fleet-database.js";
import { isTransient } from "../database/transient.js";

/**
 * A `BlobStore` in PostgreSQL (`yoake_blobs`), so a run's stored tool outputs follow it to
 * whichever worker resumes it. Text is kept as it is; a structured value as its JSON text (its own
 * copy: later changes to the value do not reach the blob).
 */
export class PostgresBlobStore implements BlobStore {
  readonly #database: FleetDatabase;

  constructor(database: FleetDatabase) {
    this.#database = database;
  }

  async store(content: Content): Promise<BlobId> {
    const id = newBlobId();
    const body = content.kind === "text" ? content.text : JSON.stringify(content.value);
    try {
      await this.#database.ready();
      await this.#database.pool.query("INSERT INTO yoake_blobs (id, kind, body) VALUES ($1, $2, $3)", [
        id,
        content.kind,
        body,
      ]);
    } catch (error) {
      throw ioError(`could not store a blob: ${(error as Error).message}`, id, error);
    }
    return id;
  }

  async load(id: BlobId): Promise<Content> {
    if (!isBlobId(id)) throw blobNotFoundError(id);
    let row: { kind: string; body: string } | undefined;
    try {
      await this.#database.ready();
      const { rows } = await this.#database.pool.query<{ kind: string; body: string }>(
        "SELECT kind, body FROM yoake_blobs WHERE id = $1",
        [id.toLowerCase()],
      );
      row = rows[0];
    } catch (error) {
      throw ioError(`could not read blob ${id}: ${(error as Error).message}`, id, error);
    }
    if (row === undefined) throw blobNotFoundError(id);
    if (row.kind === "text") return { kind: "text", text: row.body };
    try {
      return { kind: "structured", value: JSON.parse(row.body) };
    } catch (error) {
      throw new BlobStoreError("corrupted", `blob ${id} is not valid JSON`, { blobId: id, cause: error });
    }
  }

  async exists(id: BlobId): Promise<boolean> {
    if (!isBlobId(id)) return false;
    await this.#database.ready();
    const { rowCount } = await this.#database.pool.query("SELECT 1 FROM yoake_blobs WHERE id = $1", [
      id.toLowerCase(),
    ]);
    return rowCount === 1;
  }
}

function ioError(message: string, id: string, cause: unknown): BlobStoreError {
  return new BlobStoreError("io", isTransient(cause) ? `${message} (the database is unreachable)` : message, {
    blobId: id,
    cause,
  });
}
