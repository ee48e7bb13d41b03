/**
 * An interactive session: twenty short user turns of 2–4 tool calls each, whose outputs are 1–20 KB
 * — source files, greps with context, test runs, small API responses, listings. Ten facts read in
 * one turn are needed in a later one (most the next turn or two, some far back).
 */
import { grepWithContext, listing, logLines, sourceFile } from "./corpus.js";
import { type CallSpec, finishSession, type Session, type Step } from "./session.js";
import { SessionParts } from "./session-parts.js";

const AREAS = ["net", "store", "auth", "billing", "jobs", "api", "cache", "sync"];

export function buildShortTurnsSession(): Session {
  const parts = new SessionParts(20);
  const path = (n: number) => `src/${AREAS[n % AREAS.length]}/unit-${String(n).padStart(2, "0")}.ts`;
  let made = 0;

  const file = (kb: number, plant?: (lines: string[], call: CallSpec, file: string) => void): CallSpec => {
    const n = ++made;
    const lines = sourceFile(8_000 + n, kb * 1024);
    plant?.(lines, { name: "read_file", args: { path: path(n) } }, path(n));
    return parts.read(path(n), lines);
  };
  const grep = (groups: number, plant?: (lines: string[], matches: number[], call: CallSpec) => void) => {
    const n = ++made;
    const pattern = `${["retryBudget", "leaseWindow", "flushLedger", "parseQuota"][n % 4]}${n}`;
    const { lines, matches } = grepWithContext(8_500 + n, pattern, groups);
    plant?.(lines, matches, { name: "search", args: { pattern } });
    return parts.search(pattern, lines);
  };
  const tests = (lines: number, plant?: (lines: string[], call: CallSpec) => void): CallSpec => {
    const n = ++made;
    const command = `npm test -- ${AREAS[n % AREAS.length]}`;
    const log = logLines(9_000 + n, lines);
    plant?.(log, { name: "run_command", args: { command } });
    return parts.run(command, log);
  };
  const list = (): CallSpec => {
    const n = ++made;
    return parts.list(`src/${AREAS[n % AREAS.length]}`, listing(9_500 + n));
  };

  const constant =
    (id: string, fraction: number, value: number) => (lines: string[], call: CallSpec, at: string) => {
      parts.plant(id, lines, fraction, `export const ${id} = ${value};`, `${id} = ${value}`, call);
      const fact = parts.facts.get(id);
      if (fact !== undefined) fact.narrowed = SessionParts.ranged(at, fact.line);
    };
  const match =
    (id: string, index: number, value: string) => (lines: string[], matches: number[], call: CallSpec) => {
      const pattern = (call.args as { pattern: string }).pattern;
      const text = `src/jobs/budget.ts:${30 + index}:  const ${id} = ${pattern}(${value});`;
      parts.plant(
        id,
        lines,
        { index: matches[index] as number },
        text,
        `${id} = ${pattern}(${value})`,
        call,
        {
          name: "search",
          args: { pattern: id },
        },
      );
    };
  const failure = (id: string, text: string) => (lines: string[], call: CallSpec) =>
    parts.plant(id, lines, 0.999, text, text, call);

  const need = (id: string): Step => parts.need(id);
  const invoices = parts.records("invoice 12", "/v1/invoices?month=2024-11", 40, 20_002, 12);
  parts.largestAmount("largest invoice", "/v1/invoices?month=2024-11");
  const plan: (CallSpec | Step)[][] = [
    [file(3, constant("SESSION_TTL_S", 0.3, 1_800)), grep(12), list()],
    [file(14, constant("MAX_INFLIGHT_LEASES", 0.5, 4_711)), tests(90)],
    [grep(30, match("RETRY_CEILING", 0, "64")), file(5), need("MAX_INFLIGHT_LEASES")],
    [file(2, constant("SOCKET_IDLE_MS", 0.4, 93_000)), list(), file(8)],
    [
      need("RETRY_CEILING"),
      tests(160, failure("lease test", "✗ lease renews before the window closes: expected 3 got 4")),
    ],
    [
      parts.records("customer 41", "/v1/customers?plan=team", 60, 20_001, 41),
      file(6),
      need("SOCKET_IDLE_MS"),
    ],
    [need("lease test"), file(18), grep(8)],
    [need("customer 41"), list(), file(4), tests(60)],
    [grep(45, match("FLUSH_EVERY", 2, "512")), file(11)],
    [file(20, constant("QUOTA_BURST", 0.7, 3)), list(), need("FLUSH_EVERY")],
    [invoices, grep(10)],
    [need("QUOTA_BURST"), file(7), tests(120)],
    [file(16), list(), grep(20)],
    [need("invoice 12"), file(3), file(9)],
    [file(12, constant("CURSOR_PAGE_LIMIT", 0.02, 750)), tests(50), list()],
    [need("CURSOR_PAGE_LIMIT"), grep(25), file(5)],
    [file(15), list(), tests(140)],
    [need("largest invoice"), file(10), grep(14)],
    [file(4), file(13), list(), grep(6)],
    [need("SESSION_TTL_S"), file(17), tests(80)],
  ];
  return finishSession(
    {
      name: "short turns",
      description: "20 user turns of 2–4 tool calls with 1–20 KB outputs",
      workspace: parts.workspace(),
    },
    plan,
    parts.facts,
  );
}
