import { describe, expect, it } from "vitest";
import { containsName, MAX_RECALL_TERMS, recallTerms } from "./recall-terms.js";

describe("recallTerms", () => {
  it("takes names (constants, snake and camel case, paths, long numbers, quoted strings), not words", () => {
    expect(
      recallTerms(
        'Why is MAX_INFLIGHT_LEASES above lease_renewal_region in src/net/lease.ts? See fetchRecord, record 3172 and "retry budget".',
      ),
    ).toEqual([
      "retry budget",
      "MAX_INFLIGHT_LEASES",
      "lease_renewal_region",
      "src/net/lease.ts",
      "fetchRecord",
      "3172",
    ]);
  });

  it("takes nothing from a message of plain words, short numbers or a sentence's full stop", () => {
    expect(recallTerms("Task 3: keep going through the codebase and report what you find.")).toEqual([]);
    expect(recallTerms("Is record 2 still there? It was at 10 am.")).toEqual([]);
    expect(recallTerms("Don't touch the lease's window, it's fine.")).toEqual([]);
  });

  it("takes at most a few terms, without repeats", () => {
    const many = Array.from({ length: 20 }, (_, i) => `NAME_${i}`).join(" ");
    expect(recallTerms(`${many} NAME_0`)).toHaveLength(MAX_RECALL_TERMS);
    expect(recallTerms("fetchRecord then fetchRecord")).toEqual(["fetchRecord"]);
  });
});

describe("containsName", () => {
  it("finds a name only whole: not inside a longer identifier or number", () => {
    expect(containsName('"email": "ada.sato.3172@mail.example"', "3172")).toBe(true);
    expect(containsName('"amount_cents": 131720', "3172")).toBe(false);
    expect(containsName("const MAX_LEASES = 3;", "LEASES")).toBe(false);
    expect(containsName("export const MAX_LEASES = 3;", "MAX_LEASES")).toBe(true);
    expect(containsName("see src/net/lease.ts:12", "src/net/lease.ts")).toBe(true);
  });
});
