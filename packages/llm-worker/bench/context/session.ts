/**
 * The benchmark session: 8 user turns of 5 tool rounds each (40 rounds), over a workspace of
 * large, varied outputs, and 13 facts the model needs again in later turns. The plan is fixed;
 * what each policy lets the model see of it is what the benchmark measures.
 */
import { config, listing, plantLine, records, searchLines, sourceFile } from "./corpus.js";

/** A call the scripted model makes (the session's tools; `inspect` comes with our policy). */
export type CallSpec =
  | { name: "read_file"; args: { path: string; offset?: number; limit?: number } }
  | { name: "search"; args: { pattern: string } }
  | { name: "query_records"; args: Record<string, never> }
  | { name: "get_config"; args: Record<string, never> }
  | { name: "list_dir"; args: { path: string } }
  | { name: "run_command"; args: { command: string } }
  | { name: "fetch_api"; args: { endpoint: string } };

/** Something the model read once and needs again later. */
export interface Fact {
  id: string;
  /** Text that proves the model can see the fact (it appears in a tool result sent to it). */
  needle: string;
  /** The round whose result first held it. */
  sourceCallId: string;
  source: CallSpec;
  /** 1-based line of the needle in the full output of `source` (also in a file it was saved to). */
  line: number;
  /** What our model passes to `inspect` to read it back from the blob. */
  selector: string;
  /** A narrower call that finds it again, when the tool has one (a line range, a precise pattern). */
  narrowed?: CallSpec;
}

export type Step = { kind: "call"; callId: string; call: CallSpec } | { kind: "need"; fact: Fact };

export interface Turn {
  prompt: string;
  steps: Step[];
}

/** What the tools read: source files, search outputs, records, configuration, listings. */
export interface Workspace {
  files: ReadonlyMap<string, string>;
  searches: ReadonlyMap<string, string>;
  listings: ReadonlyMap<string, string>;
  recordsJson: string;
  configJson: string;
  /** Outputs of `run_command` by command line (builds, tests, git). */
  commands: ReadonlyMap<string, string>;
  /** JSON bodies of `fetch_api` by endpoint. */
  apis: ReadonlyMap<string, string>;
}

export interface Session {
  /** A short name for the tables. */
  name: string;
  /** One line on its shape, printed above its table. */
  description: string;
  workspace: Workspace;
  turns: Turn[];
  facts: Fact[];
}

/** Lines of context read around a needed line, by every policy alike (`inspect` or a ranged read). */
export const READ_AROUND = 10;

const FILE_KB = [
  64, 180, 22, 120, 48, 200, 36, 150, 90, 28, 170, 110, 56, 140, 20, 190, 75, 130, 40, 160, 100, 85,
];
const AREAS = ["net", "store", "auth", "billing", "jobs", "api", "cache", "sync"];
const SEARCHES: [string, number][] = [
  ["fetchRecord", 1_800],
  ["withRetry", 3_000],
  ["emitMetric", 4_500],
  ["parseHeader", 1_200],
];

const filePath = (n: number): string =>
  `src/${AREAS[n % AREAS.length]}/module-${String(n).padStart(2, "0")}.ts`;
const lineOf = (text: string, needle: string): number =>
  text.slice(0, text.indexOf(needle)).split("\n").length;
const around = (line: number): { from: number; to: number } => ({
  from: Math.max(1, line - READ_AROUND),
  to: line + READ_AROUND,
});

/** Files and their planted facts: [file number, fraction of the file, constant, value]. */
const FILE_FACTS: [number, number, string, number][] = [
  [1, 0.5, "MAX_INFLIGHT_LEASES", 4711],
  [2, 0.005, "SOCKET_IDLE_TIMEOUT_MS", 93_000],
  [5, 0.997, "LEDGER_FLUSH_EVERY", 512],
  [4, 0.7, "QUOTA_BURST_FACTOR", 3],
  [9, 0.5, "SHARD_REBALANCE_THRESHOLD", 8_192],
  [14, 0.3, "CURSOR_PAGE_LIMIT", 750],
  [16, 0.55, "DIGEST_WINDOW_SECONDS", 86_400],
];
/** Searches and their planted facts: [search index, fraction, constant, value]. */
const SEARCH_FACTS: [number, number, string, number][] = [
  [0, 0.5, "LEASE_RENEW_JITTER", 37],
  [2, 0.998, "METRIC_FLUSH_BATCH", 2_048],
];
const RECORD_FACTS = [3_172, 2];
const CONFIG_FACTS: [number, string, string][] = [
  [150, "lease_renewal_region", "ap-northeast-1c/7731"],
  [296, "ledger_archive_bucket", "s3://ledger-archive-eu/2024"],
];

/** Builds the session: the same bytes and the same plan on every run. */
export function buildSession(): Session {
  const files = new Map<string, string>();
  const facts = new Map<string, Fact>();
  const call = (spec: CallSpec) => spec;

  for (let n = 1; n <= FILE_KB.length; n++) {
    const lines = sourceFile(n, (FILE_KB[n - 1] as number) * 1024);
    for (const [file, fraction, name, value] of FILE_FACTS) {
      if (file !== n) continue;
      const line = plantLine(lines, fraction, `export const ${name} = ${value};`);
      const path = filePath(n);
      const { from, to } = around(line);
      facts.set(name, {
        id: name,
        needle: `${name} = ${value}`,
        sourceCallId: "",
        source: call({ name: "read_file", args: { path } }),
        line,
        selector: `lines:${from}-${to}`,
        narrowed: call({ name: "read_file", args: { path, offset: from, limit: to - from + 1 } }),
      });
    }
    files.set(filePath(n), lines.join("\n"));
  }

  const searches = new Map<string, string>();
  SEARCHES.forEach(([pattern, count], i) => {
    const lines = searchLines(100 + i, pattern, count);
    for (const [index, fraction, name, value] of SEARCH_FACTS) {
      if (index !== i) continue;
      const text = `src/net/lease-window.ts:${812 + index}:  const ${name} = ${pattern}(lease, ${value});`;
      const line = plantLine(lines, fraction, text);
      const { from, to } = around(line);
      facts.set(name, {
        id: name,
        needle: `${name} = ${pattern}(lease, ${value})`,
        sourceCallId: "",
        source: call({ name: "search", args: { pattern } }),
        line,
        selector: `lines:${from}-${to}`,
        narrowed: call({ name: "search", args: { pattern: name } }),
      });
    }
    searches.set(pattern, lines.join("\n"));
  });

  const recordList = records(5_000);
  const recordsJson = JSON.stringify(recordList, null, 2);
  for (const id of RECORD_FACTS) {
    const needle = (recordList[id] as { email: string }).email;
    facts.set(`record ${id}`, {
      id: `record ${id}`,
      needle,
      sourceCallId: "",
      source: call({ name: "query_records", args: {} }),
      line: lineOf(recordsJson, `"${needle}"`),
      selector: `slice:${Math.max(0, id - 2)}..${id + 3}`,
    });
  }

  const configJson = JSON.stringify(
    config(300, new Map(CONFIG_FACTS.map(([index, key, value]) => [index, [key, value]]))),
    null,
    2,
  );
  for (const [, key, value] of CONFIG_FACTS) {
    facts.set(key, {
      id: key,
      needle: value,
      sourceCallId: "",
      source: call({ name: "get_config", args: {} }),
      line: lineOf(configJson, `"${key}"`),
      selector: `key:${key}`,
    });
  }

  const listings = new Map<string, string>();
  const list = (area: number): CallSpec => {
    const path = `src/${AREAS[area % AREAS.length]}`;
    listings.set(path, listing(200 + area));
    return { name: "list_dir", args: { path } };
  };
  const read = (n: number): CallSpec => ({ name: "read_file", args: { path: filePath(n) } });
  const search = (i: number): CallSpec => ({
    name: "search",
    args: { pattern: (SEARCHES[i] as [string, number])[0] },
  });
  const need = (id: string): Step => ({ kind: "need", fact: facts.get(id) as Fact });
  const recordsCall: CallSpec = { name: "query_records", args: {} };
  const configCall: CallSpec = { name: "get_config", args: {} };

  const plan: (CallSpec | Step)[][] = [
    [read(1), list(0), search(0), read(2), configCall],
    [read(3), read(4), recordsCall, list(1), read(5)],
    [
      need("MAX_INFLIGHT_LEASES"),
      need("lease_renewal_region"),
      read(6),
      list(2),
      search(1),
      read(7),
      read(8),
    ],
    [need("record 3172"), need("LEASE_RENEW_JITTER"), read(9), list(3), read(10), read(11), list(4)],
    [
      need("SOCKET_IDLE_TIMEOUT_MS"),
      need("LEDGER_FLUSH_EVERY"),
      read(12),
      read(13),
      list(5),
      search(2),
      read(14),
    ],
    [need("record 2"), need("QUOTA_BURST_FACTOR"), read(15), list(6), read(16), read(17), list(7)],
    [
      need("SHARD_REBALANCE_THRESHOLD"),
      need("ledger_archive_bucket"),
      read(18),
      list(0),
      read(19),
      search(3),
      read(20),
    ],
    [
      need("METRIC_FLUSH_BATCH"),
      need("CURSOR_PAGE_LIMIT"),
      need("DIGEST_WINDOW_SECONDS"),
      read(21),
      list(1),
      read(22),
      list(2),
      list(3),
    ],
  ];

  return finishSession(
    {
      name: "rounds",
      description: "8 user turns of 5 tool rounds over 20–200 KB files, long searches, a 1.2 MB JSON array",
      workspace: { files, searches, listings, recordsJson, configJson, commands: new Map(), apis: new Map() },
    },
    plan,
    facts,
  );
}

/**
 * Numbers the plan's calls (`toolu_round_NN`) and ties each fact to the first call of its source,
 * where the model read it. Every fact must have one.
 */
export function finishSession(
  base: Omit<Session, "turns" | "facts">,
  plan: readonly (readonly (CallSpec | Step)[])[],
  facts: ReadonlyMap<string, Fact>,
): Session {
  let round = 0;
  const turns = plan.map((entries, t): Turn => {
    const steps = entries.map((entry): Step => {
      if ("kind" in entry) return entry;
      const callId = `toolu_round_${String(++round).padStart(3, "0")}`;
      // The first call of a fact's source is where the model read it.
      for (const fact of facts.values()) {
        if (fact.sourceCallId === "" && sameCall(fact.source, entry)) fact.sourceCallId = callId;
      }
      return { kind: "call", callId, call: entry };
    });
    return { prompt: promptOf(t + 1, steps), steps };
  });
  for (const fact of facts.values()) {
    if (fact.sourceCallId === "") throw new Error(`fact ${fact.id} has no source call in the plan`);
    // A prompt names what a turn needs, never the fact itself: the model must reach it.
    if (turns.some((turn) => turn.prompt.includes(fact.needle)))
      throw new Error(`a prompt gives away fact ${fact.id}`);
  }
  return { ...base, turns, facts: [...facts.values()] };
}

/**
 * The user's message for a turn. A turn that needs facts read earlier names them, as a person
 * asks about what they want checked ("check how MAX_INFLIGHT_LEASES is used"); the scripted model
 * does not read it (it follows the plan), but a policy may (recall). `CONTEXT_BENCH_PROMPTS=
 * generic` gives every turn the same message naming nothing, as the sessions had before recall.
 */
function promptOf(turn: number, steps: readonly Step[]): string {
  const needs = steps.flatMap((step) => (step.kind === "need" ? [step.fact.id] : []));
  if (needs.length === 0 || process.env.CONTEXT_BENCH_PROMPTS === "generic")
    return `Task ${turn}: keep going through the codebase and report what you find.`;
  const names = needs.length === 1 ? needs[0] : `${needs.slice(0, -1).join(", ")} and ${needs.at(-1)}`;
  return `Task ${turn}: check how ${names} fit with the next modules, and report what you find.`;
}

export function sameCall(a: CallSpec, b: CallSpec): boolean {
  return a.name === b.name && JSON.stringify(a.args) === JSON.stringify(b.args);
}
