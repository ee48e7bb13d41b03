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

/** HTML as markdown (turndown): headings, links, lists and code kept, scripts and styles dropped. */
export function htmlToMarkdown(html: string): string {
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
