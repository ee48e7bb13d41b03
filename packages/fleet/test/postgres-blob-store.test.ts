import { afterAll, beforeAll, expect, it } from "vitest";
import { describeBlobStoreContract } from "../../llm-worker/test/support/blob-store-conformance.js";
import { PostgresBlobStore } from "../src/blobs/postgres-blob-store.js";
import { FleetDatabase } from "../src/database/fleet-database.js";
import { type PostgresCluster, startPostgres } from "./support/postgres-cluster.js";

let cluster: PostgresCluster;
let database: FleetDatabase;
beforeAll(async () => {
  cluster = await startPostgres();
  database = new FleetDatabase(await cluster.createDatabase("blobs"));
}, 60_000);
afterAll(async () => {
  await database?.close();
  await cluster?.stop();
});

describeBlobStoreContract("PostgresBlobStore", async () => new PostgresBlobStore(database));

it("reports a structured blob that no longer parses as corrupted", async () => {
  const store = new PostgresBlobStore(database);
  const id = await store.store({ kind: "structured", value: { a: 1 } });
  await database.pool.query("UPDATE yoake_blobs SET body = '{\"a\":' WHERE id = $1", [id]);
  await expect(store.load(id)).rejects.toMatchObject({ kind: "corrupted", blobId: id });
});

it("reports an unreachable database as io, naming the blob", async () => {
  const unreachable = new FleetDatabase(`postgres://postgres@127.0.0.1:${cluster.port}/no_such_database`);
  const store = new PostgresBlobStore(unreachable);
  const id = "01890a5d-ac96-774b-bcce-b302099a8057";
  await expect(store.load(id)).rejects.toMatchObject({ kind: "io", blobId: id });
  await expect(store.store({ kind: "text", text: "x" })).rejects.toMatchObject({ kind: "io" });
  await unreachable.close();
});
