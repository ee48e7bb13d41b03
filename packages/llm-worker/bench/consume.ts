/**
 * One measured run, in its own process so CPU time and peak RSS belong to it alone:
 * `consume.ts <floor|ours|assembled> <shape> <baseURL>`. Prints one JSON line: the median of five runs after
 * three warm-ups.
 */
import { createParser } from "eventsource-parser";
import { createClient } from "../src/index.js";
import type { Shape, Variant } from "./streams.js";

const [variant, shape, baseURL] = process.argv.slice(2) as [Variant, Shape, string];
const path = shape === "anthropic" ? "/v1/messages" : "/chat/completions";

/** The bare floor: fetch, SSE framing and JSON.parse of every event, nothing else. */
async function floor(): Promise<number> {
  const response = await fetch(baseURL + path, { method: "POST", body: "{}" });
  if (!response.body) throw new Error("no body");
  let events = 0;
  const parser = createParser({
    onEvent: (message) => {
      if (message.data !== "[DONE]") {
        JSON.parse(message.data);
        events++;
      }
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of response.body) parser.feed(decoder.decode(chunk, { stream: true }));
  return events;
}

/** Our whole client path: request building, transport, framing, decoding to normalized events. */
async function ours(): Promise<number> {
  const client = createClient({ scheme: shape, model: "bench", baseURL, apiKey: "bench" });
  let events = 0;
  for await (const event of client.stream({ items: [{ type: "message", role: "user", text: "go" }] })) {
    if (event.type === "error") throw new Error(event.message);
    events++;
  }
  return events;
}

/**
 * Our client path and the one response assembly on top (`client.complete`: every event through a
 * Timeline and its collectors), as the Worker does for each response.
 */
async function assembled(): Promise<number> {
  const client = createClient({ scheme: shape, model: "bench", baseURL, apiKey: "bench" });
  const response = await client.complete({ items: [{ type: "message", role: "user", text: "go" }] });
  if (response.status !== "completed") throw new Error(response.error?.message ?? response.status);
  return response.text.length / 4 + response.toolCalls.length;
}

const run = { floor, ours, assembled }[variant];
// Warm-up until the JIT has settled (both variants alike), then the median of several runs.
for (let i = 0; i < 3; i++) await run();
const samples: { events: number; wallMs: number; cpuMs: number }[] = [];
for (let i = 0; i < 5; i++) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const events = await run();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  samples.push({ events, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 });
}
samples.sort((a, b) => a.cpuMs - b.cpuMs);
const rssMB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ ...samples[2], rssMB })}\n`);
