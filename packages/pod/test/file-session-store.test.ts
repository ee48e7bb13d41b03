import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileSessionStore } from "../src/index.js";
import { describeSessionStoreContract } from "./support/session-store-conformance.js";
import { testKey } from "./support/session-test-config.js";

describeSessionStoreContract("FileSessionStore", async () => {
  const root = await mkdtemp(join(tmpdir(), "yoake-file-store-"));
  return {
    store: new FileSessionStore(root, { key: testKey, durability: "batch" }),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
});
