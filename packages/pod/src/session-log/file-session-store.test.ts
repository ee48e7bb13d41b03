import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeSessionStoreContract } from "../../test/support/session-store-conformance.js";
import { testKey } from "../../test/support/session-test-config.js";
import { FileSessionStore } from "./file-session-store.js";

describeSessionStoreContract("FileSessionStore", async () => {
  const root = await mkdtemp(join(tmpdir(), "yoake-file-store-"));
  return {
    store: new FileSessionStore(root, { key: testKey, durability: "batch" }),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
});
