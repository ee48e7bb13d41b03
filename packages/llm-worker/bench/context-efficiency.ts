/**
 * `npm run bench:context` (and the second half of `npm run bench`): the same scripted session of
 * 40 tool rounds over large outputs, run on the real Worker against the mock provider under each
 * context policy. Reports the input tokens of every request's messages, the cache writes an
 * Anthropic-style prefix cache would charge, and how many of the facts the model needed later it
 * could still reach. Prints a markdown table and whether our targets were met.
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
import { Disk } from "./context/tools.js";

interface Row {
  policy: Policy;
  requests: number;
  inputTokens: number;
  cacheWriteTokens: number;
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
      tools: setup.tools,
      ...(setup.blobStore !== undefined && { blobStore: setup.blobStore }),
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
    "| policy | requests | input tokens | cache-write tokens | largest prompt | facts reachable | calls to reach facts | prunes |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.policy.name} | ${r.requests} | ${n(r.inputTokens)} | ${n(r.cacheWriteTokens)} | ${n(r.largestPrompt)} | ${r.reachable} / ${facts} | ${r.recoveryCalls} | ${r.policy.prunes ? r.prunes : "–"} |`,
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

/** The targets, for each of our policies: met, or missed by how much. */
function targets(rows: readonly Row[], facts: number): string[] {
  const out: string[] = [];
  const others = rows.filter((r) => !r.policy.ours);
  const pruning = others.filter((r) => r.policy.prunes);
  for (const ours of rows.filter((r) => r.policy.ours)) {
    const fewestOther = Math.min(...others.map((r) => r.inputTokens));
    const inputMet = ours.inputTokens < fewestOther;
    const factsMet = ours.reachable === facts;
    const fewestWrites = Math.min(...pruning.map((r) => r.cacheWriteTokens));
    const writesMet = ours.cacheWriteTokens < fewestWrites;
    out.push(
      `- ${ours.policy.name}: input tokens ${inputMet ? "met" : "MISSED"} (${n(ours.inputTokens)} vs ${n(fewestOther)} for the best other, ${(ours.inputTokens / fewestOther).toFixed(2)}x); ` +
        `facts ${factsMet ? "met" : "MISSED"} (${ours.reachable} / ${facts}); ` +
        `cache writes ${writesMet ? "met" : "MISSED"} (${n(ours.cacheWriteTokens)} vs ${n(fewestWrites)} for the best pruning policy, ${(ours.cacheWriteTokens / fewestWrites).toFixed(2)}x)`,
    );
  }
  return out;
}

const started = performance.now();
const session = buildSession();
const rows: Row[] = [];
for (const policy of POLICIES) rows.push(await run(session, policy));
const rounds = session.turns.reduce((sum, t) => sum + t.steps.filter((s) => s.kind === "call").length, 0);
console.log(
  `\nContext efficiency: ${session.turns.length} turns, ${rounds} tool rounds, ${session.facts.length} facts needed later; ` +
    `tokens are gpt-tokenizer (o200k) counts of the messages of every request (node ${process.version}, ${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
);
console.log(table(rows, session.facts.length));
console.log(`\n${factTable(rows, session)}`);
console.log("\nTargets:");
for (const line of targets(rows, session.facts.length)) console.log(line);
