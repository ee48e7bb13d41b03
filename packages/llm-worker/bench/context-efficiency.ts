/**
 * `npm run bench:context` (and the second half of `npm run bench`): three scripted sessions of
 * different shapes (8 turns of 5 rounds; one turn of ~170 calls; 20 short turns), each run on the
 * real Worker against the mock provider under each context policy. Reports the requests, the
 * input tokens of every request's messages, the cache writes an Anthropic-style prefix cache would
 * charge, the priced cost (reads 0.1, writes 1.25), and how many of the facts the model needed
 * later it could still reach. Prints markdown tables and whether our targets were met.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, Worker } from "../src/index.js";
import { startMockProvider } from "../src/testing/index.js";
import { PromptMeter } from "./context/meter.js";
import { type FactOutcome, ScriptedModel } from "./context/model.js";
import { POLICIES, type Policy } from "./context/policies/index.js";
import { buildSession, type Session } from "./context/session.js";
import { buildOneTurnSession } from "./context/session-one-turn.js";
import { buildShortTurnsSession } from "./context/session-short-turns.js";
import { Disk } from "./context/tools.js";

interface Row {
  policy: Policy;
  requests: number;
  inputTokens: number;
  cacheWriteTokens: number;
  pricedCost: number;
  largestPrompt: number;
  reachable: number;
  recoveryCalls: number;
  prunes: number;
  outcomes: readonly FactOutcome[];
}

const SYSTEM = "You are a coding agent. Use the tools to read the codebase; answer briefly.";

async function run(session: Session, policy: Policy): Promise<Row> {
  const provider = await startMockProvider();
  const meter = new PromptMeter();
  const model = new ScriptedModel(session, meter);
  provider.setHandler((request) => model.respond(request));
  const dir = await mkdtemp(join(tmpdir(), "yoake-bench-context-"));
  try {
    const setup = policy.setup(session, new Disk(session.workspace), join(dir, "blobs"));
    const worker = new Worker({
      client: createClient({
        scheme: "anthropic",
        model: "bench",
        baseURL: provider.baseURLFor("anthropic"),
        apiKey: "bench",
        retry: { maxRetries: 0 },
      }),
      system: SYSTEM,
      // The one-turn session makes ~170 requests in its single run.
      maxTurns: 1_000,
      tools: setup.tools,
      ...(setup.blobStore !== undefined && { blobStore: setup.blobStore }),
      ...(setup.toolOutput !== undefined && { toolOutput: setup.toolOutput }),
      ...(setup.interceptors !== undefined && { interceptors: setup.interceptors }),
    });
    for (const turn of session.turns) {
      const result = await worker.run(turn.prompt);
      if (result.status !== "finished") throw new Error(`${policy.name}: ${JSON.stringify(result)}`);
    }
    return {
      policy,
      requests: meter.requests,
      inputTokens: meter.inputTokens,
      cacheWriteTokens: meter.cacheWriteTokens,
      pricedCost: Math.round(meter.pricedCost),
      largestPrompt: meter.largestPrompt,
      reachable: model.outcomes.filter((o) => o.reachable).length,
      recoveryCalls: model.recoveryCalls,
      prunes: setup.prunes(),
      outcomes: model.outcomes,
    };
  } finally {
    await provider.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const n = (value: number): string => value.toLocaleString("en-US");

function table(rows: readonly Row[], facts: number): string {
  const lines = [
    "| policy | requests | input tokens | cache-write tokens | priced cost | largest prompt | facts reachable | calls to reach facts | prunes |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.policy.name} | ${r.requests} | ${n(r.inputTokens)} | ${n(r.cacheWriteTokens)} | ${n(r.pricedCost)} | ${n(r.largestPrompt)} | ${r.reachable} / ${facts} | ${r.recoveryCalls} | ${r.policy.prunes ? r.prunes : "–"} |`,
    );
  }
  return lines.join("\n");
}

/** Each fact under each policy: `in context`, reached with N calls, or lost. */
function factTable(rows: readonly Row[], session: Session): string {
  const lines = [
    `| fact (source, position) | ${rows.map((r) => r.policy.label).join(" | ")} |`,
    `|---|${rows.map(() => "---").join("|")}|`,
  ];
  for (const fact of session.facts) {
    const cells = rows.map((r) => {
      const outcome = r.outcomes.find((o) => o.id === fact.id);
      if (outcome === undefined) return "?";
      if (!outcome.reachable) return "**lost**";
      return outcome.extraCalls === 0
        ? "in context"
        : `${outcome.extraCalls} call${outcome.extraCalls > 1 ? "s" : ""}`;
    });
    lines.push(`| ${fact.id} (${fact.source.name}, line ${n(fact.line)}) | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

/**
 * The targets, for the Pod's policy against every policy that is not ours: fewer input tokens, a
 * lower priced cost, every fact reached, at most 10% more requests than the fewest, and in a
 * one-turn session at least one prune.
 */
function targets(rows: readonly Row[], session: Session): string[] {
  const out: string[] = [];
  const others = rows.filter((r) => !r.policy.ours);
  const facts = session.facts.length;
  for (const ours of rows.filter((r) => r.policy.pod)) {
    const fewestInput = Math.min(...others.map((r) => r.inputTokens));
    const lowestCost = Math.min(...others.map((r) => r.pricedCost));
    const fewestRequests = Math.min(...others.map((r) => r.requests));
    const checks: [string, boolean, string][] = [
      [
        "input tokens",
        ours.inputTokens < fewestInput,
        `${(ours.inputTokens / fewestInput).toFixed(2)}x the fewest other`,
      ],
      [
        "priced cost",
        ours.pricedCost < lowestCost,
        `${(ours.pricedCost / lowestCost).toFixed(2)}x the lowest other`,
      ],
      ["facts", ours.reachable === facts, `${ours.reachable} / ${facts}`],
      [
        "requests",
        ours.requests <= fewestRequests * 1.1,
        `${ours.requests} vs ${fewestRequests}, ${((ours.requests / fewestRequests - 1) * 100).toFixed(0)}% more`,
      ],
    ];
    if (session.turns.length === 1) checks.push(["prune fires", ours.prunes > 0, `${ours.prunes} prunes`]);
    const missed = checks.filter(([, met]) => !met).length;
    out.push(
      `- ${session.name}, ${ours.policy.label}: ${missed === 0 ? "all met" : `${missed} MISSED`}: ` +
        checks.map(([name, met, detail]) => `${name} ${met ? "met" : "MISSED"} (${detail})`).join("; "),
    );
  }
  return out;
}

const started = performance.now();
const only = process.env.CONTEXT_BENCH_SESSIONS?.split(",");
// Labels, to run some policies only (while tuning); the targets need them all.
const onlyPolicies = process.env.CONTEXT_BENCH_POLICIES?.split(",");
const sessions = [buildSession(), buildOneTurnSession(), buildShortTurnsSession()].filter(
  (s) => only === undefined || only.includes(s.name),
);
const summary: string[] = [];
for (const session of sessions) {
  const sessionStarted = performance.now();
  const rows: Row[] = [];
  for (const policy of POLICIES) {
    if (onlyPolicies === undefined || onlyPolicies.includes(policy.label))
      rows.push(await run(session, policy));
  }
  const calls = session.turns.reduce((sum, t) => sum + t.steps.filter((s) => s.kind === "call").length, 0);
  console.log(
    `\n### Session "${session.name}": ${session.description}\n\n${session.turns.length} turns, ${calls} planned tool calls, ${session.facts.length} facts needed later (${((performance.now() - sessionStarted) / 1000).toFixed(1)} s)\n`,
  );
  console.log(table(rows, session.facts.length));
  if (process.env.CONTEXT_BENCH_FACTS !== "0") console.log(`\n${factTable(rows, session)}`);
  summary.push(...targets(rows, session));
}
console.log(
  `\nTokens are gpt-tokenizer (o200k) counts of the messages of every request; node ${process.version}, ${((performance.now() - started) / 1000).toFixed(1)} s in all.\n\nTargets:`,
);
for (const line of summary) console.log(line);
