import type { Event } from "../llm-client/event.js";
import type { SchemeName } from "../llm-client/item.js";
import type { Response } from "../llm-client/response.js";
import { ResponseCollector } from "./response-collector.js";
import { Timeline } from "./timeline.js";

/** Gathers a whole event stream into one `Response`, through a Timeline of its own. */
export async function collectResponse(events: AsyncIterable<Event>, origin: SchemeName): Promise<Response> {
  const collector = new ResponseCollector(new Timeline(), origin);
  for await (const event of events) collector.dispatch(event);
  return collector.result();
}

/** `collectResponse` for events already at hand. */
export function assembleResponse(events: Iterable<Event>, origin: SchemeName): Response {
  const collector = new ResponseCollector(new Timeline(), origin);
  for (const event of events) collector.dispatch(event);
  return collector.result();
}
