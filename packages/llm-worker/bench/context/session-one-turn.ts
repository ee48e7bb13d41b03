/**
 * A headless bug hunt: one user turn, about 170 tool calls over large, varied outputs — source
 * files of 30–200 KB, greps of 200–3,000 lines (bare and with context), JSON responses of
 * thousands of records, a 20,000-line build log — and small ones (listings, short files, git).
 * Twelve facts read along the way are needed again later in the same turn.
 */
import { config, grepWithContext, listing, logLines, searchLines, sourceFile } from "./corpus.js";
import { type CallSpec, finishSession, type Session, type Step } from "./session.js";
import { SessionParts } from "./session-parts.js";

const AREAS = ["net", "store", "auth", "billing", "jobs", "api", "cache", "sync", "ledger", "lease"];

export function buildOneTurnSession(): Session {
  const parts = new SessionParts(170);
  const steps: (CallSpec | Step)[] = [];
  const path = (n: number) => `src/${AREAS[n % AREAS.length]}/part-${String(n).padStart(3, "0")}.ts`;

  // What the hunt reads, in order; facts are planted as their outputs are made.
  const bigFile = (n: number, plant?: (lines: string[], call: CallSpec) => void): CallSpec => {
    const lines = sourceFile(1_000 + n, parts.int(30, 200) * 1024);
    const call: CallSpec = { name: "read_file", args: { path: path(n) } };
    plant?.(lines, call);
    return parts.read(path(n), lines);
  };
  const smallFile = (n: number): CallSpec =>
    parts.read(path(n), sourceFile(1_000 + n, parts.int(1, 4) * 1024));
  const bareGrep = (n: number, plant?: (lines: string[], call: CallSpec) => void): CallSpec => {
    const pattern = `${["fetch", "emit", "parse", "with", "load"][n % 5]}${AREAS[n % AREAS.length]}${n}`;
    const lines = searchLines(2_000 + n, pattern, parts.int(200, 3_000));
    const call: CallSpec = { name: "search", args: { pattern } };
    plant?.(lines, call);
    return parts.search(pattern, lines);
  };
  const contextGrep = (n: number, plant?: (lines: string[], matches: number[], call: CallSpec) => void) => {
    const pattern = `TODO(${AREAS[n % AREAS.length]}-${n})`;
    const { lines, matches } = grepWithContext(3_000 + n, pattern, parts.int(40, 500));
    const call: CallSpec = { name: "search", args: { pattern } };
    plant?.(lines, matches, call);
    return parts.search(pattern, lines);
  };

  const constant = (id: string, fraction: number, value: number) => (lines: string[], call: CallSpec) => {
    const file = (call.args as { path: string }).path;
    parts.plant(id, lines, fraction, `export const ${id} = ${value};`, `${id} = ${value}`, call);
    const fact = parts.facts.get(id);
    if (fact !== undefined) fact.narrowed = SessionParts.ranged(file, fact.line);
  };
  const grepFact = (id: string, fraction: number, value: number) => (lines: string[], call: CallSpec) => {
    const pattern = (call.args as { pattern: string }).pattern;
    const text = `src/lease/window.ts:812:  const ${id} = ${pattern}(lease, ${value});`;
    parts.plant(id, lines, fraction, text, `${id} = ${pattern}(lease, ${value})`, call, {
      name: "search",
      args: { pattern: id },
    });
  };
  const matchFact =
    (id: string, match: number, value: string) => (lines: string[], matches: number[], call: CallSpec) => {
      const pattern = (call.args as { pattern: string }).pattern;
      const text = `src/jobs/retry-budget.ts:${40 + match}:  // ${pattern}: ${id} must stay ${value}`;
      parts.plant(id, lines, { index: matches[match] as number }, text, `${id} must stay ${value}`, call, {
        name: "search",
        args: { pattern: id },
      });
    };

  let n = 0;
  const small = (): CallSpec => {
    n++;
    switch (n % 3) {
      case 0:
        return parts.list(`src/${AREAS[n % AREAS.length]}/${n}`, listing(4_000 + n));
      case 1:
        return smallFile(500 + n);
      default:
        return parts.run(`git log --oneline -n 20 -- ${path(n)}`, logLines(5_000 + n, 20));
    }
  };

  // The build log: 20,000 lines, the first error deep inside, the verdict at the end.
  const build = logLines(6_000, 20_000);
  const buildCall: CallSpec = { name: "run_command", args: { command: "npm run build" } };
  parts.plant(
    "TS2322 in lease.ts",
    build,
    0.67,
    "src/lease/renew.ts(88,7): error TS2322: Type 'string' is not assignable to type 'LeaseWindow'.",
    "error TS2322: Type 'string' is not assignable to type 'LeaseWindow'",
    buildCall,
  );
  parts.plant(
    "build verdict",
    build,
    1,
    "Build failed: 3 errors in 2 files (src/lease/renew.ts, src/ledger/flush.ts)",
    "3 errors in 2 files",
    buildCall,
  );

  // Phase 1: the failing build and the files around it.
  steps.push(parts.run("npm run build", build));
  for (let i = 1; i <= 12; i++) {
    steps.push(i === 3 ? bigFile(i, constant("LEASE_RENEW_WINDOW_MS", 0.45, 12_500)) : bigFile(i));
    steps.push(small());
  }
  steps.push(bareGrep(1, grepFact("RENEW_JITTER", 0.6, 37)));
  for (let i = 2; i <= 10; i++) steps.push(i % 3 === 0 ? contextGrep(i) : bareGrep(i));
  steps.push(parts.need("TS2322 in lease.ts"), parts.need("LEASE_RENEW_WINDOW_MS"));

  // Phase 2: the API the lease code calls, and its data.
  steps.push(parts.records("customer 2417", "/v1/customers?all=1", 3_000, 7_001, 2_417));
  parts.largestAmount("largest invoice", "/v1/customers?all=1");
  const settings = config(
    220,
    new Map([[131, ["lease_renewal_region", "ap-northeast-1c/7731"]] as [number, [string, string]]]),
  );
  steps.push(parts.fetch("/v1/settings", settings));
  parts.facts.set("lease_renewal_region", {
    id: "lease_renewal_region",
    needle: "ap-northeast-1c/7731",
    sourceCallId: "",
    source: { name: "fetch_api", args: { endpoint: "/v1/settings" } },
    line: 1,
    selector: "key:lease_renewal_region",
  });
  steps.push(parts.records("invoices", "/v1/invoices?month=2024-11", 120, 7_002, 60));
  for (let i = 13; i <= 30; i++) {
    steps.push(i === 20 ? bigFile(i, constant("LEDGER_FLUSH_EVERY", 0.001, 512)) : bigFile(i));
    steps.push(small());
  }
  steps.push(contextGrep(11, matchFact("RETRY_BUDGET", 1, "below 64")));
  for (let i = 12; i <= 24; i++) steps.push(i % 3 === 0 ? contextGrep(i) : bareGrep(i));
  steps.push(parts.need("largest invoice"), parts.need("RENEW_JITTER"), parts.need("RETRY_BUDGET"));

  // Phase 3: the ledger side, more API data, the deep greps.
  steps.push(parts.records("customer 1650", "/v1/customers?region=eu", 2_000, 7_003, 1_650));
  for (let i = 31; i <= 45; i++) {
    steps.push(i === 40 ? bigFile(i, constant("SHARD_REBALANCE_THRESHOLD", 0.8, 8_192)) : bigFile(i));
    steps.push(small());
  }
  steps.push(contextGrep(25, matchFact("LEASE_GRACE", 17, "under 90 s")));
  for (let i = 26; i <= 36; i++) steps.push(i % 3 === 0 ? contextGrep(i) : bareGrep(i));
  steps.push(
    parts.need("customer 2417"),
    parts.need("lease_renewal_region"),
    parts.need("LEDGER_FLUSH_EVERY"),
  );

  // Phase 4: the fix's neighbourhood, the last checks.
  for (let i = 46; i <= 56; i++) {
    steps.push(bigFile(i));
    steps.push(small());
  }
  for (let i = 37; i <= 40; i++) steps.push(i % 3 === 0 ? contextGrep(i) : bareGrep(i));
  steps.push(
    parts.need("SHARD_REBALANCE_THRESHOLD"),
    parts.need("customer 1650"),
    parts.need("LEASE_GRACE"),
    parts.need("build verdict"),
  );
  steps.push(parts.need("invoices"));

  return finishSession(
    {
      name: "one turn",
      description:
        "one user turn of ~170 tool calls: 30–200 KB files, greps of 200–3,000 lines, JSON of thousands of records, a 20,000-line build log",
      workspace: parts.workspace(),
    },
    [steps],
    parts.facts,
  );
}
