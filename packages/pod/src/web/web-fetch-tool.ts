import { type Tool, tool } from "@yoake/llm-worker";
import { z } from "zod";
import type { httpGet } from "./http-get.js";
import type { WebSettings } from "./web-settings.js";

/** The name the model calls the web tool by. */
export const WEB_FETCH_TOOL = "web_fetch";

/** The most bytes of a response read: a larger page is cut (and said to be). */
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/**
 * `web_fetch`: one URL, fetched under `settings` (allowed hosts, no local network unless allowed;
 * see `httpGet`), with a time and size limit. HTML comes back as markdown, text and JSON as they
 * are; anything else is refused. A long page is a tool output like any other: the Worker keeps it
 * in the BlobStore and the model reads it with `inspect`.
 */
export function createWebFetchTool(settings: WebSettings): Tool {
  return tool({
    name: WEB_FETCH_TOOL,
    description:
      "Fetch a web page (http or https) and return it as markdown (HTML) or text. Only hosts the manifest allows " +
      "are reachable. Use it for documentation, issues or references the user points to.",
    input: z.object({ url: z.string().describe("The absolute URL to fetch.") }),
    timeoutMs: TIMEOUT_MS + 1000,
    execute: async ({ url }, context) => {
      // node:http, node:https and node:dns are loaded by the first fetch, not by every Pod's start.
      const { httpGet, WebFetchRefused } = await import("./http-get.js");
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(TIMEOUT_MS)]);
      let page: Awaited<ReturnType<typeof httpGet>>;
      try {
        page = await httpGet(url, { settings, maxBytes: MAX_RESPONSE_BYTES, signal });
      } catch (error) {
        if (error instanceof WebFetchRefused) throw new Error(`refused: ${error.message}`);
        if (signal.aborted && !context.signal.aborted)
          throw new Error(`no answer within ${TIMEOUT_MS / 1000} s`);
        throw new Error(`could not fetch ${url}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const type = page.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
      const text = page.body.toString("utf8");
      let content: string;
      if (type === "text/html" || type === "application/xhtml+xml") {
        const { htmlToMarkdown } = await import("./html-to-markdown.js");
        try {
          content = await htmlToMarkdown(text, signal);
        } catch (error) {
          if (signal.aborted && !context.signal.aborted)
            throw new Error(`no answer within ${TIMEOUT_MS / 1000} s (converting the page)`);
          throw error;
        }
      } else if (
        type.startsWith("text/") ||
        type === "application/json" ||
        type.endsWith("+json") ||
        type === ""
      )
        content = text;
      else throw new Error(`${page.url} is ${type}, not a page that can be read as text`);
      const head = `${page.url} (HTTP ${page.status}${page.truncated ? `, cut at ${MAX_RESPONSE_BYTES} bytes` : ""})`;
      if (page.status >= 400) throw new Error(`${head}\n\n${content.slice(0, 2000)}`);
      return `${head}\n\n${content}`;
    },
  });
}
