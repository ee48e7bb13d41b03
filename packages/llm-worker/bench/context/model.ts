/**
 * The scripted model behind the mock provider. It follows the session plan, and when it needs a
 * fact it looks at what it was actually sent: if a tool result shows the fact, it is found; if
 * not, it tries what the context offers, in this order, until the fact shows or nothing is left:
 *
 * 1. `inspect` on a `[blob:<id>]` pointer of the result (our policy);
 * 2. `read_file` of a file the output was saved to (`saved to: <path>`, Claude Code and opencode),
 *    around the needed line;
 * 3. a narrower call, when the tool has one (a line range of the file, a precise search pattern);
 * 4. the same call again (an API with no filter).
 *
 * It knows where each fact is (the line, the key, the entry), under every policy alike: the
 * benchmark measures what a policy keeps reachable and what reaching it costs, not search skill.
 * Facts needed at the same point of the plan are pursued together: one response carries the next
 * call for each of them, as a model asks for independent things in parallel.
 */
import type { RecordedRequest, ScriptedBlock, ScriptedResponse } from "../../src/testing/index.js";
import { type PromptMeter, toolResultText } from "./meter.js";
import { type CallSpec, type Fact, READ_AROUND, type Session } from "./session.js";

/** What became of one needed fact. */
export interface FactOutcome {
  id: string;
  reachable: boolean;
  /** Calls made to reach it again (0: it was still in the context). */
  extraCalls: number;
}

interface Pursuit {
  fact: Fact;
  /** The calls whose results may hold the fact or a pointer to it: the source, then recovery calls. */
  callIds: string[];
  calls: number;
  inspected: boolean;
  readPaths: Set<string>;
  narrowed: boolean;
  recalled: boolean;
}

interface WireBody {
  messages: { role: string; content: { type: string; text?: string; tool_use_id?: string }[] }[];
  tools?: { name: string }[];
}

/** Gives up on a fact after this many calls (none of the policies needs more than two). */
const MAX_CALLS_PER_FACT = 4;
const BLOB_POINTER = /\[blob:([0-9a-f-]{36})\]/;
const SAVED_TO = /saved to: (\S+)/;

export class ScriptedModel {
  readonly outcomes: FactOutcome[] = [];
  readonly #session: Session;
  readonly #meter: PromptMeter;
  #turn = -1;
  #step = 0;
  readonly #pursuits = new Map<string, Pursuit>();
  readonly #settled = new Set<string>();
  #recoveryCalls = 0;
  #found: string[] = [];

  constructor(session: Session, meter: PromptMeter) {
    this.#session = session;
    this.#meter = meter;
  }

  respond(request: RecordedRequest): ScriptedResponse {
    const body = request.body as WireBody;
    const count = this.#meter.record(body);
    const usage = {
      inputTokens: count.inputTokens,
      outputTokens: 40,
      cacheReadInputTokens: count.cacheReadTokens,
      cacheCreationInputTokens: count.cacheWriteTokens,
    };
    const last = body.messages.at(-1);
    if (last?.role === "user" && last.content.some((block) => block.type === "text")) {
      this.#turn++;
      this.#step = 0;
      this.#found = [];
    }
    const turn = this.#session.turns[this.#turn];
    if (turn === undefined) throw new Error(`the plan has no turn ${this.#turn + 1}`);
    const results = toolResults(body);
    const userTexts = userText(body);
    const hasInspect = body.tools?.some((t) => t.name === "inspect") ?? false;
    for (;;) {
      const step = turn.steps[this.#step];
      if (step === undefined) {
        const text = `Task ${this.#turn + 1} done. ${this.#found.join("; ")}`.trim();
        return { blocks: [{ type: "text", text }], usage };
      }
      if (step.kind === "call") {
        this.#step++;
        return { blocks: [callBlock(step.callId, step.call)], usage };
      }
      // The facts needed here, together.
      let end = this.#step;
      const blocks: ScriptedBlock[] = [];
      for (let next = turn.steps[end]; next?.kind === "need"; next = turn.steps[++end]) {
        if (this.#settled.has(next.fact.id)) continue;
        const call = this.#pursue(next.fact, results, userTexts, hasInspect);
        if (call !== undefined) blocks.push(call);
      }
      if (blocks.length > 0) return { blocks, usage };
      this.#step = end;
    }
  }

  /** The next call toward `fact`, or undefined once it is found or lost (the outcome is recorded). */
  #pursue(
    fact: Fact,
    results: ReadonlyMap<string, string>,
    userTexts: readonly string[],
    hasInspect: boolean,
  ): ScriptedBlock | undefined {
    let pursuit = this.#pursuits.get(fact.id);
    if (pursuit === undefined) {
      pursuit = {
        fact,
        callIds: [fact.sourceCallId],
        calls: 0,
        inspected: false,
        readPaths: new Set(),
        narrowed: false,
        recalled: false,
      };
      this.#pursuits.set(fact.id, pursuit);
    }
    const settled = pursuit;
    const done = (reachable: boolean): undefined => {
      this.outcomes.push({ id: fact.id, reachable, extraCalls: settled.calls });
      this.#found.push(reachable ? fact.needle : `${fact.id}: not found`);
      this.#settled.add(fact.id);
      return undefined;
    };
    for (const text of [...results.values(), ...userTexts]) if (text.includes(fact.needle)) return done(true);
    if (pursuit.calls >= MAX_CALLS_PER_FACT) return done(false);

    // What the results of this fact's calls show now, newest first.
    const shown = pursuit.callIds
      .map((id) => results.get(id))
      .filter((text): text is string => text !== undefined)
      .reverse();
    const call = (name: string, args: unknown): ScriptedBlock => {
      const id = `toolu_recover_${String(++this.#recoveryCalls).padStart(3, "0")}`;
      settled.callIds.push(id);
      settled.calls++;
      return { type: "tool_call", id, name, arguments: args };
    };

    const blobId = hasInspect && !pursuit.inspected ? firstMatch(shown, BLOB_POINTER) : undefined;
    if (blobId !== undefined) {
      pursuit.inspected = true;
      return call("inspect", { blob_id: blobId, selector: fact.selector });
    }
    const path = firstMatch(shown, SAVED_TO, pursuit.readPaths);
    if (path !== undefined) {
      pursuit.readPaths.add(path);
      const offset = Math.max(1, fact.line - READ_AROUND);
      return call("read_file", { path, offset, limit: fact.line + READ_AROUND - offset + 1 });
    }
    if (fact.narrowed !== undefined && !pursuit.narrowed) {
      pursuit.narrowed = true;
      return call(fact.narrowed.name, fact.narrowed.args);
    }
    if (!pursuit.recalled) {
      pursuit.recalled = true;
      return call(fact.source.name, fact.source.args);
    }
    return done(false);
  }

  /** Calls made to reach facts again, in all. */
  get recoveryCalls(): number {
    return this.#recoveryCalls;
  }
}

function callBlock(id: string, spec: CallSpec): ScriptedBlock {
  return { type: "tool_call", id, name: spec.name, arguments: spec.args };
}

/** Tool result texts of a request by call id. */
function toolResults(body: WireBody): Map<string, string> {
  const out = new Map<string, string>();
  for (const message of body.messages) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && block.tool_use_id !== undefined)
        out.set(block.tool_use_id, toolResultText(block));
    }
  }
  return out;
}

/**
 * The text of the user side of a request other than tool results: the prompts, and what the
 * harness added to them (a recall; a system item is sent as user text). Not the model's own
 * earlier answers, which repeat the facts it found.
 */
function userText(body: WireBody): string[] {
  const out: string[] = [];
  for (const message of body.messages) {
    if (message.role !== "user") continue;
    for (const block of message.content)
      if (block.type === "text" && block.text !== undefined) out.push(block.text);
  }
  return out;
}

/** The first capture of `pattern` in `texts` that is not in `skip`. */
function firstMatch(
  texts: readonly string[],
  pattern: RegExp,
  skip?: ReadonlySet<string>,
): string | undefined {
  for (const text of texts) {
    const found = text.match(pattern)?.[1];
    if (found !== undefined && !skip?.has(found)) return found;
  }
  return undefined;
}
