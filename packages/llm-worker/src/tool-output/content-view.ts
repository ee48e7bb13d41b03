import type { Content, JsonValue } from "../tool/tool-output.js";
import { isJsonObject } from "./json-describe.js";

/**
 * The three shapes the seed summarises and `inspect` reads. Structured content that is neither an
 * array nor an object (a bare string or number) has no format of its own in the seed: it is
 * shown as the text of its JSON.
 */
export type ContentView =
  | { kind: "text"; text: string }
  | { kind: "array"; entries: JsonValue[] }
  | { kind: "object"; value: { [key: string]: JsonValue } };

export function viewOf(content: Content): ContentView {
  if (content.kind === "text") return { kind: "text", text: content.text };
  const value = content.value;
  if (Array.isArray(value)) return { kind: "array", entries: value };
  if (isJsonObject(value)) return { kind: "object", value };
  return { kind: "text", text: JSON.stringify(value) };
}

/** The whole content as text, for showing it inline (compact JSON for structured content). */
export function contentText(content: Content): string {
  return content.kind === "text" ? content.text : JSON.stringify(content.value);
}
