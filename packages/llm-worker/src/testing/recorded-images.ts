import type { RecordedRequest } from "./mock-provider.js";

/**
 * An image the mock provider found in a request body, decoded from the scheme's own wire form:
 * where it sat (a user turn, or the result of a tool call), and its bytes with their media type or
 * the URL it named.
 */
export interface RecordedImage {
  in: "user" | "tool_result";
  mediaType?: string;
  /** Base64 bytes. */
  data?: string;
  url?: string;
}

/**
 * The images of a recorded request, in order, read the way each provider reads them (Anthropic
 * `image` blocks, OpenAI `image_url` / `input_image` data URLs, Gemini `inlineData` / `fileData`,
 * Ollama `images`). A Chat image in a `user` message right after `tool` messages counts as that
 * tool result's (Chat's `tool` messages cannot carry images). Anything malformed is skipped: the
 * assertions then fail on a missing image.
 */
export function recordedImages(request: RecordedRequest): RecordedImage[] {
  const body = record(request.body);
  if (body === undefined) return [];
  switch (request.scheme) {
    case "anthropic":
      return anthropicImages(body);
    case "openai-chat":
      return chatImages(body);
    case "openai-responses":
      return responsesImages(body);
    case "gemini":
      return geminiImages(body);
    case "ollama":
      return ollamaImages(body);
    default:
      return [];
  }
}

function anthropicImages(body: Record<string, unknown>): RecordedImage[] {
  const out: RecordedImage[] = [];
  const fromBlock = (block: unknown, where: RecordedImage["in"]): void => {
    const b = record(block);
    const source = record(b?.source);
    if (b?.type !== "image" || source === undefined) return;
    if (source.type === "base64")
      out.push({ in: where, mediaType: str(source.media_type), data: str(source.data) });
    else if (source.type === "url") out.push({ in: where, url: str(source.url) });
  };
  for (const message of list(body.messages)) {
    for (const block of list(record(message)?.content)) {
      const b = record(block);
      if (b?.type === "tool_result") for (const inner of list(b.content)) fromBlock(inner, "tool_result");
      else fromBlock(block, "user");
    }
  }
  return out;
}

function chatImages(body: Record<string, unknown>): RecordedImage[] {
  const out: RecordedImage[] = [];
  let afterTool = false;
  for (const message of list(body.messages)) {
    const m = record(message);
    if (m?.role === "tool") {
      afterTool = true;
      continue;
    }
    if (m?.role === "user")
      for (const part of list(m.content)) {
        const url = str(record(record(part)?.image_url)?.url);
        if (url !== undefined) out.push(fromUrl(url, afterTool ? "tool_result" : "user"));
      }
    afterTool = false;
  }
  return out;
}

function responsesImages(body: Record<string, unknown>): RecordedImage[] {
  const out: RecordedImage[] = [];
  for (const item of list(body.input)) {
    const i = record(item);
    const where = i?.type === "function_call_output" ? "tool_result" : "user";
    for (const part of list(i?.type === "function_call_output" ? i.output : i?.content)) {
      const p = record(part);
      if (p?.type === "input_image" && typeof p.image_url === "string") out.push(fromUrl(p.image_url, where));
    }
  }
  return out;
}

function geminiImages(body: Record<string, unknown>): RecordedImage[] {
  const out: RecordedImage[] = [];
  const fromPart = (part: unknown, where: RecordedImage["in"]): void => {
    const p = record(part);
    const inline = record(p?.inlineData);
    const file = record(p?.fileData);
    if (inline) out.push({ in: where, mediaType: str(inline.mimeType), data: str(inline.data) });
    if (file) out.push({ in: where, mediaType: str(file.mimeType), url: str(file.fileUri) });
  };
  for (const content of list(body.contents)) {
    let afterResponse = false;
    for (const part of list(record(content)?.parts)) {
      const response = record(record(part)?.functionResponse);
      if (response) {
        afterResponse = true;
        for (const inner of list(response.parts)) fromPart(inner, "tool_result");
      } else fromPart(part, afterResponse ? "tool_result" : "user");
    }
  }
  return out;
}

function ollamaImages(body: Record<string, unknown>): RecordedImage[] {
  const out: RecordedImage[] = [];
  for (const message of list(body.messages)) {
    const m = record(message);
    const where = m?.role === "tool" ? "tool_result" : "user";
    for (const data of list(m?.images)) if (typeof data === "string") out.push({ in: where, data });
  }
  return out;
}

function fromUrl(url: string, where: RecordedImage["in"]): RecordedImage {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { in: where, mediaType: match[1], data: match[2] } : { in: where, url };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
