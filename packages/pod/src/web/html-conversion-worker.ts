/**
 * The worker thread that turns one HTML page into markdown (turndown). It runs apart from the Pod's
 * event loop because the conversion is CPU-bound and can be long (seconds for a large flat page,
 * super-linear in nesting): on the main thread no cancel nor time limit could act until it ended.
 * See `htmlToMarkdown` for the side that starts it.
 *
 * Self-contained on purpose (no relative imports, only erasable type syntax): from a checkout, Node
 * runs this TypeScript file directly in the worker, stripping its types.
 */
import { parentPort } from "node:worker_threads";
import TurndownService from "turndown";

/** Elements whose content is never readable text. */
const DROPPED = [
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "svg",
  "canvas",
  "head",
  "form",
] as const;

/** HTML as markdown: headings, links, lists and code kept, scripts and styles dropped. */
function convert(html: string): string {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  service.remove([...DROPPED]);
  // turndown parses a fragment: a whole document's head (its title) would come out as text.
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return service
    .turndown(body)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

parentPort?.once("message", (html: string) => {
  try {
    parentPort?.postMessage({ ok: true, markdown: convert(html) });
  } catch (error) {
    // A page nested past the parser's recursion (thousands deep) is refused, not half converted.
    const message = error instanceof RangeError ? "the page is nested too deeply to convert" : String(error);
    parentPort?.postMessage({ ok: false, message });
  }
});
