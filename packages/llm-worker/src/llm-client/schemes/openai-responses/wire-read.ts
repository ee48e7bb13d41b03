import { MalformedFrame } from "../json-frame-decoder.js";
import type {
  WireOutputContentPart,
  WireOutputItem,
  WireResponse,
  WireStreamEvent,
  WireSummaryText,
} from "./wire.js";

/*
 * Checked reads of the fields the decoder relies on. The stream is untrusted input: a field of the
 * wrong type throws `MalformedFrame`, which the decoder turns into a stream failure.
 */

export function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function stringField(value: unknown, name: string): string {
  if (typeof value !== "string") throw new MalformedFrame(`${name} is not a string`);
  return value;
}

export function responseOf(event: WireStreamEvent): WireResponse {
  const response = (event as { response?: unknown }).response;
  if (typeof response !== "object" || response === null) throw new MalformedFrame("no response object");
  return response as WireResponse;
}

export function itemOf(event: WireStreamEvent): WireOutputItem {
  const item = (event as { item?: unknown }).item;
  if (typeof item !== "object" || item === null || typeof (item as { type?: unknown }).type !== "string") {
    throw new MalformedFrame("no output item");
  }
  return item as WireOutputItem;
}

export function outputIndexOf(event: WireStreamEvent): number {
  const index = (event as { output_index?: unknown }).output_index;
  // Servers that leave it out stream one item at a time anyway.
  return typeof index === "number" ? index : 0;
}

export function contentIndexOf(event: WireStreamEvent): number {
  const index = (event as { content_index?: unknown }).content_index;
  return typeof index === "number" ? index : 0;
}

export function summaryIndexOf(index: unknown): number {
  return typeof index === "number" && index >= 0 ? index : 0;
}

/** The content parts that become text blocks: output text and refusals. */
export function isTextPart(part: unknown): part is WireOutputContentPart {
  if (typeof part !== "object" || part === null) return false;
  const type = (part as { type?: unknown }).type;
  return type === "output_text" || type === "refusal";
}

export function partText(part: WireOutputContentPart): string {
  const text = part.type === "refusal" ? part.refusal : part.text;
  return typeof text === "string" ? text : "";
}

export function summaryTexts(summary: readonly WireSummaryText[]): string[] {
  return summary.map((part) => (typeof part?.text === "string" ? part.text : ""));
}
