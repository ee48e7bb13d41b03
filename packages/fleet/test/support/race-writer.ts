// A writer in its own process for the racing test: opens a session, says "opened", appends one
// entry when it reads "go" on stdin, prints what happened as one JSON line, and exits.
import { createInterface } from "node:readline";
import { SessionKey, SessionLogError } from "@yoake/pod/session-log";
import { FleetDatabase } from "../../src/database/fleet-database.js";
import { PostgresSessionStore } from "../../src/sessions/postgres-session-store.js";

const [url, id, keyHex, leaseMs] = process.argv.slice(2) as [string, string, string, string];
const database = new FleetDatabase(url);
const store = new PostgresSessionStore(database, {
  key: SessionKey.fromBytes(Buffer.from(keyHex, "hex")),
  leaseMs: Number(leaseMs),
});
const { writer } = await store.open(id);
console.log("opened");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== "go") continue;
  try {
    const receipt = await writer.append({
      type: "user_input",
      segments: [{ type: "text", text: `from ${process.pid}` }],
      text: `from ${process.pid}`,
    });
    console.log(JSON.stringify({ appended: receipt.seq }));
  } catch (error) {
    console.log(JSON.stringify({ refused: error instanceof SessionLogError ? error.kind : String(error) }));
  }
  break;
}
lines.close();
await writer.close();
await store.close();
