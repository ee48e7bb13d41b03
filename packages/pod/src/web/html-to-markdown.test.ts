/**
 * HTML conversion in its worker thread: the result, a page too deep to convert, and a hostile page
 * that keeps the converter busy while the Pod's event loop stays free and a cancel acts at once.
 */
import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "./html-to-markdown.js";

/** A page the converter needs a long while for: large and nested (super-linear in turndown). */
const HEAVY = `${"<b><i>".repeat(50)}x${"</i></b>".repeat(50)}`.repeat(4000);

describe("htmlToMarkdown", () => {
  it("keeps headings, links and lists, and drops scripts, styles and the head", async () => {
    const page = `<html><head><title>T</title><style>p{}</style></head><body><h1>Title</h1>
<script>alert(1)</script><p>Read the <a href="/docs">docs</a>.</p><ul><li>one</li><li>two</li></ul></body></html>`;
    expect(await htmlToMarkdown(page, new AbortController().signal)).toBe(
      "# Title\n\nRead the [docs](/docs).\n\n-   one\n-   two",
    );
  });

  it("refuses a page nested past the converter's recursion with a reason, not a crash", async () => {
    const deep = `${"<table><tr><td>".repeat(3000)}x`;
    await expect(htmlToMarkdown(deep, new AbortController().signal)).rejects.toThrow(/nested too deeply/);
  });

  it("leaves the event loop free while a hostile page converts, and ends at once when cancelled", async () => {
    const controller = new AbortController();
    let ticks = 0;
    // The main thread keeps running timers during the conversion; after a few, the call is cancelled.
    const timer = setInterval(() => {
      ticks++;
      if (ticks === 5) controller.abort(new Error("cancelled by the user"));
    }, 10);
    try {
      await expect(htmlToMarkdown(HEAVY, controller.signal)).rejects.toThrow("cancelled by the user");
    } finally {
      clearInterval(timer);
    }
    // The loop ticked while the page was converting (a conversion on it would have held every tick).
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it("refuses at once when already cancelled", async () => {
    await expect(htmlToMarkdown("<p>x</p>", AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });
});
