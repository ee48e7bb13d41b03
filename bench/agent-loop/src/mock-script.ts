import type { MockHandler, MockReply, RecordedRequest } from "@yoake/llm-worker/testing";
import {
  answerTool,
  type BenchScheme,
  benchSchemes,
  callIdOf,
  cityOf,
  scriptedReply,
  TOOL_NAMES,
} from "./conversation.js";

/** A tool result as a framework sent it back: the call it answers and its text. */
export interface SentToolResult {
  callId: string;
  text: string;
}

/**
 * The mock's script for the benchmark conversation. It is stateless: the round is read from the
 * request itself (three tool results per finished round), so one mock serves every framework and
 * every run in turn. It also checks the work of the framework under test: every request must be
 * streamed and carry the three tools, and for each earlier round the three results in call order,
 * with the text the tools returned. Anything else is answered with a 400 naming the fault, which
 * fails that framework's run loudly instead of measuring a loop that went wrong.
 */
export function conversationHandler(rounds: number): MockHandler {
  return (request) => {
    const scheme = request.scheme as BenchScheme | undefined;
    if (scheme === undefined || !benchSchemes.includes(scheme))
      return fault(`unexpected path ${request.path}`);
    const problem = checkRequest(scheme, request, rounds);
    if (typeof problem === "string") return fault(problem);
    return scriptedReply(scheme, problem.round, rounds);
  };
}

function checkRequest(
  scheme: BenchScheme,
  request: RecordedRequest,
  rounds: number,
): string | { round: number } {
  const body = request.body as Record<string, unknown> | undefined;
  if (typeof body !== "object" || body === null) return "the body is not JSON";
  if (body.stream !== true) return "the request did not ask for a stream";
  const tools = toolNamesOf(body.tools);
  if (TOOL_NAMES.some((name) => !tools.includes(name))) return `tools sent: [${tools.join(", ")}]`;
  const results = toolResultsOf(scheme, body);
  if (results.length % TOOL_NAMES.length !== 0) return `${results.length} tool results, not a multiple of 3`;
  const round = results.length / TOOL_NAMES.length;
  if (round > rounds) return `round ${round} is past the last round (${rounds})`;
  for (let at = 0; at < results.length; at++) {
    const r = Math.floor(at / TOOL_NAMES.length);
    const index = at % TOOL_NAMES.length;
    const result = results[at] as SentToolResult;
    const expected = answerTool(TOOL_NAMES[index] as (typeof TOOL_NAMES)[number], cityOf(r));
    if (result.callId !== callIdOf(scheme, r, index)) return `result ${at} answers ${result.callId}`;
    if (!result.text.includes(expected)) return `result ${at} is ${JSON.stringify(result.text)}`;
  }
  return { round };
}

function fault(message: string): MockReply {
  return { fault: "status", status: 400, message: `agent-loop bench: ${message}` };
}

/** Tool names in any of the three schemes' tool lists. */
function toolNamesOf(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t: { name?: unknown; function?: { name?: unknown } }) =>
    String(t.name ?? t.function?.name ?? ""),
  );
}

/** Every tool result in the request's history, in order, whatever shape the scheme gives it. */
export function toolResultsOf(scheme: BenchScheme, body: Record<string, unknown>): SentToolResult[] {
  const out: SentToolResult[] = [];
  if (scheme === "anthropic") {
    for (const message of asArray(body.messages)) {
      for (const block of asArray(message.content)) {
        if (block.type === "tool_result")
          out.push({ callId: String(block.tool_use_id), text: textOf(block.content) });
      }
    }
  } else if (scheme === "openai-responses") {
    for (const item of asArray(body.input)) {
      if (item.type === "function_call_output")
        out.push({ callId: String(item.call_id), text: textOf(item.output) });
    }
  } else {
    for (const message of asArray(body.messages)) {
      if (message.role === "tool")
        out.push({ callId: String(message.tool_call_id), text: textOf(message.content) });
    }
  }
  return out;
}

type Loose = Record<string, unknown>;

function asArray(value: unknown): Loose[] {
  return Array.isArray(value) ? (value.filter((x) => typeof x === "object" && x !== null) as Loose[]) : [];
}

/** A plain string, or the text parts of a content array (`text` / `output_text` / `input_text`). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join("");
}
