import type { Item } from "@yoake/llm-worker";
import type { PodEvent } from "@yoake/pod";
import { toWireEvent, type WireEvent } from "@yoake/pod/protocol";
import { screenJson } from "../screen-text.js";

/**
 * The JSON line `--output-format stream-json` prints for one Pod event: the event exactly as the
 * socket protocol sends it to its clients (`{"event":"text_delta",...}`), so a script reads the
 * same shapes from either. Events the protocol leaves out (the `*_complete` text events, which
 * repeat the deltas) print nothing.
 */
export function streamEventLine(event: PodEvent, history: () => readonly Item[]): string | undefined {
  const wire = toWireEvent(event, history);
  return wire === undefined ? undefined : wireEventLine(wire);
}

/** The line for an event already in its wire form (a fleet run's stored events). */
export function wireEventLine(wire: WireEvent): string {
  return `${screenJson(wire)}\n`;
}
