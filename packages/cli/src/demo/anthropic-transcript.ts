/** A tool result as the model received it in one request. */
export interface SentToolResult {
  toolUseId: string;
  text: string;
  isError: boolean;
}

/**
 * What the scripted model reads from one Anthropic Messages request: the user's prompts in order,
 * the system texts attached after them (file references arrive as `<system>` user text), and the
 * tool results the request carries, oldest first.
 */
export interface AnthropicTranscript {
  prompts: string[];
  /** `<system>` texts, unwrapped, in order: `[File: README.md]\n…`. */
  attachments: string[];
  /** Every tool result in the request, by tool_use id. */
  results: Map<string, SentToolResult>;
  /** Tool_use ids called since the last prompt, in order. */
  callsSincePrompt: string[];
}

const SYSTEM_OPEN = "<system>\n";
const SYSTEM_CLOSE = "\n</system>";

/** Reads a request body the mock provider recorded; an unexpected shape reads as empty. */
export function readAnthropicTranscript(body: unknown): AnthropicTranscript {
  const transcript: AnthropicTranscript = {
    prompts: [],
    attachments: [],
    results: new Map(),
    callsSincePrompt: [],
  };
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isRecord(block)) continue;
      if (message.role === "assistant") {
        if (block.type === "tool_use" && typeof block.id === "string")
          transcript.callsSincePrompt.push(block.id);
        continue;
      }
      if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
        transcript.results.set(block.tool_use_id, {
          toolUseId: block.tool_use_id,
          text: resultText(block.content),
          isError: block.is_error === true,
        });
      } else if (block.type === "text" && typeof block.text === "string") {
        if (block.text.startsWith(SYSTEM_OPEN) && block.text.endsWith(SYSTEM_CLOSE)) {
          transcript.attachments.push(block.text.slice(SYSTEM_OPEN.length, -SYSTEM_CLOSE.length));
        } else {
          transcript.prompts.push(block.text);
          transcript.callsSincePrompt = [];
        }
      }
    }
  }
  return transcript;
}

/** A tool result's content is a string, or text blocks. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isRecord(part) && typeof part.text === "string" ? part.text : "")).join("");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
