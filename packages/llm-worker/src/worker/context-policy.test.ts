import { describe, expect, it } from "vitest";
import { charTokens, simulateSession } from "../../test/support/test-items.js";
import { ContextPruner, type ContextPrunerOptions } from "../context/context-pruner.js";
import { TokenAccountant, type TokenAccountantOptions } from "../context/token-accounting.js";
import { toHistoryResult } from "../tool-output/history-result.js";
import { MemoryBlobStore } from "../tool-output/memory-blob-store.js";
import { BLOB_STORE_PRUNE_OPTIONS, BLOB_STORE_TOOL_OUTPUT } from "./context-policy.js";

const ONE_TURN = { turns: 1, requestsPerTurn: 60, userTokens: 2_000, resultTokens: 600, summaryTokens: 20 };
const SHORT_TURNS = { turns: 20, requestsPerTurn: 3, userTokens: 50, resultTokens: 900, summaryTokens: 20 };

function run(
  shape: typeof ONE_TURN,
  options: ContextPrunerOptions & { accounting?: TokenAccountantOptions } = BLOB_STORE_PRUNE_OPTIONS,
) {
  const { accounting, ...pruning } = options;
  const log = simulateSession(
    new ContextPruner({ tokensOf: charTokens, ...pruning }),
    new TokenAccountant({ tokensOf: charTokens, ...accounting }),
    shape,
  );
  return { ...log, batches: log.pruned.filter((ids) => ids.length > 0).length };
}

describe("BLOB_STORE_PRUNE_OPTIONS", () => {
  it("prunes a one-turn run, which the seed's 3 protected turns never do, and costs less", () => {
    const seed = run(ONE_TURN, {});
    const ours = run(ONE_TURN);
    expect(seed.batches).toBe(0);
    expect(ours.batches).toBeGreaterThan(0);
    expect(ours.cost).toBeLessThan(seed.cost);
  });

  it("prunes in a session of short turns, more often and for less than with a per-turn estimate of future requests", () => {
    const perTurn = run(SHORT_TURNS, { config: BLOB_STORE_PRUNE_OPTIONS.config });
    const ours = run(SHORT_TURNS);
    // Per turn it expects 3 more requests: it prunes twice in 60 requests; over the session, 4 times.
    expect(perTurn.batches).toBe(2);
    expect(ours.batches).toBe(4);
    expect(ours.cost).toBeLessThan(perTurn.cost);
  });

  it("batches: fewer prunes, and a lower cost, than pruning as soon as it pays", () => {
    const eager = run(ONE_TURN, { ...BLOB_STORE_PRUNE_OPTIONS, batchPrunes: false });
    const ours = run(ONE_TURN);
    expect(ours.batches).toBeLessThan(eager.batches);
    expect(ours.cost).toBeLessThan(eager.cost);
  });
});

describe("BLOB_STORE_TOOL_OUTPUT", () => {
  /** A 2,000-line source file of 45-byte lines (90 KB), with a constant on its 18th line. */
  const SOURCE = Array.from({ length: 2_000 }, (_, i) =>
    i === 17
      ? "export const SOCKET_IDLE_TIMEOUT_MS = 93000;"
      : `  step(${String(i).padStart(4, "0")}); // advance the buffer`,
  ).join("\n");

  it("keeps the first 18 lines of a file read whole, where its imports and constants are", async () => {
    const store = new MemoryBlobStore();
    const result = await toHistoryResult(SOURCE, store, BLOB_STORE_TOOL_OUTPUT);
    expect(result.blobId).toBeDefined();
    expect(result.content).toContain("export const SOCKET_IDLE_TIMEOUT_MS = 93000;");
    // Still a summary: a small fraction of the file.
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(1_536);
  });
});
