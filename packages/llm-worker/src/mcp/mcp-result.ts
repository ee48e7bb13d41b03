import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/client";
import type { ImageMediaType, ImagePart } from "../llm-client/item.js";
import type { ToolResultValue } from "../tool/tool.js";
import { base64Bytes, formatBytes, imageOutput } from "../tool/tool-images.js";
import { inline, type JsonValue, stored } from "../tool/tool-output.js";
import { INLINE_LIMIT_BYTES } from "../tool-output/limits.js";
import { utf8Length } from "../tool-output/utf8.js";

/**
 * What an MCP tool result becomes for the Worker:
 *
 * - text content blocks joined by newlines, as a plain string, so the Worker's promotion applies
 *   (over 800 bytes: stored with a summary when there is a BlobStore; a long JSON text is stored as
 *   structured content);
 * - images (PNG, JPEG, GIF, WebP) are also passed on as images (`imageOutput`): the model sees
 *   them while the result is fresh, and prune drops them with it; the text keeps a line naming
 *   each (`[image: image/png, 1.1 KB]`);
 * - audio, other images, embedded binary resources and resource links as one short line each:
 *   the model reads text, and base64 in history costs tokens on every later request; an embedded
 *   text resource gives its header line and its text;
 * - `structuredContent`, when the text blocks are absent or are JSON themselves (the spec's
 *   backward-compatible copy): a structured output, inline JSON up to 800 bytes, stored above.
 *   A server whose text is prose keeps its text (server-filesystem wraps a file as
 *   `{ content: "<the file>" }`; the text summarizes as lines, the wrapper would not);
 * - `isError: true`: throws an Error with the text, which the Worker turns into an error result.
 */
export function toolResultOf(result: CallToolResult): ToolResultValue {
  const text = textOf(result.content);
  if (result.isError === true) {
    throw new Error(text.length > 0 ? text : "the MCP tool reported an error without a message");
  }
  const images = imagesOf(result.content);
  if (images.length > 0) return imageOutput(images, text);
  const structured = result.structuredContent;
  if (structured !== undefined && (text.length === 0 || looksLikeJsonContainer(text))) {
    return structuredOutput(structured as JsonValue);
  }
  return text;
}

const IMAGE_TYPES: ReadonlySet<string> = new Set<ImageMediaType>([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

function imagesOf(content: readonly ContentBlock[] | undefined): ImagePart[] {
  const images: ImagePart[] = [];
  for (const block of content ?? [])
    if (block.type === "image" && IMAGE_TYPES.has(block.mimeType))
      images.push({ type: "image", mediaType: block.mimeType as ImageMediaType, data: block.data });
  return images;
}

/** Small enough: inline compact JSON; larger: a structured blob, which `inspect` can slice. */
function structuredOutput(value: JsonValue): ToolResultValue {
  const json = JSON.stringify(value);
  return utf8Length(json) <= INLINE_LIMIT_BYTES ? inline(json) : stored({ kind: "structured", value });
}

/** The text the model reads for a list of content blocks. */
export function textOf(content: readonly ContentBlock[] | undefined): string {
  if (content === undefined || content.length === 0) return "";
  if (content.length === 1 && content[0]?.type === "text") return content[0].text;
  return content.map(describeBlock).join("\n");
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case "resource_link": {
      const mime = block.mimeType ? ` (${block.mimeType})` : "";
      const about = block.description ? ` — ${block.description}` : "";
      return `[resource link: ${block.name} ${block.uri}${mime}${about}]`;
    }
    case "resource": {
      const resource = block.resource;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : "";
      if ("text" in resource && typeof resource.text === "string") {
        return `[resource: ${resource.uri}${mime}]\n${resource.text}`;
      }
      const size = "blob" in resource && typeof resource.blob === "string" ? base64Bytes(resource.blob) : 0;
      return `[resource: ${resource.uri}${mime}, ${formatBytes(size)}]`;
    }
    default:
      // A block type from a newer protocol revision: named, never silently dropped.
      return `[${(block as { type: string }).type} content]`;
  }
}

const BLANKS = " \t\r\n";

/** `[...]` or `{...}` around the text: the first and last non-blank characters only, no parse. */
function looksLikeJsonContainer(text: string): boolean {
  let start = 0;
  while (start < text.length && BLANKS.includes(text.charAt(start))) start++;
  let end = text.length - 1;
  while (end > start && BLANKS.includes(text.charAt(end))) end--;
  const open = text.charAt(start);
  const close = text.charAt(end);
  return (open === "[" && close === "]") || (open === "{" && close === "}");
}
