import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgres } from "./support/postgres-cluster.js";

describe("the test PostgreSQL cluster", () => {
  it("serves on 127.0.0.1 as an unprivileged user and is gone after stop", async () => {
    const cluster = await startPostgres();
    const client = new pg.Client({ connectionString: cluster.url });
    let dataDirectory = "";
    try {
      await client.connect();
      const { rows } = await client.query<{ user: string; fsync: string; dir: string }>(
        "SELECT current_user AS user, current_setting('fsync') AS fsync, current_setting('data_directory') AS dir",
      );
      expect(rows[0]).toMatchObject({ user: "postgres", fsync: "off" });
      dataDirectory = rows[0]?.dir ?? "";
      const other = await cluster.createDatabase("second");
      const second = new pg.Client({ connectionString: other });
      await second.connect();
      expect((await second.query("SELECT current_database() AS db")).rows[0]).toEqual({ db: "second" });
      await second.end();
    } finally {
      await client.end();
      await cluster.stop();
    }
    expect(existsSync(dataDirectory)).toBe(false);
    const late = new pg.Client({ connectionString: cluster.url });
    await expect(late.connect()).rejects.toThrow(/ECONNREFUSED/);
  }, 60_000);
});
