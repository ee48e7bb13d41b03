import { Worker } from "node:worker_threads";

/** What the conversion worker answers. */
type Converted = { ok: true; markdown: string } | { ok: false; message: string };

/**
 * HTML as markdown, converted in a worker thread of its own (`html-conversion-worker.ts`) so that
 * the Pod's event loop stays free: `signal` (the call's cancel and time limit) ends the conversion
 * at once by terminating the thread, whatever the page does to the converter. Rejects with the
 * signal's reason when aborted, or with why the page could not be converted.
 */
export async function htmlToMarkdown(html: string, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  // `#html-conversion-worker` is the TypeScript source in a checkout and the bundle once built
  // (package.json `imports`).
  const worker = new Worker(new URL(import.meta.resolve("#html-conversion-worker")), {
    // A hostile page may make the converter's DOM huge: it fails alone, not the Pod.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      const abort = (): void => reject(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      worker.once("message", (answer: Converted) =>
        answer.ok ? resolve(answer.markdown) : reject(new Error(answer.message)),
      );
      worker.once("error", (error) => reject(new Error(`the page could not be converted: ${error.message}`)));
      worker.once("exit", (code) => reject(new Error(`the page converter stopped (exit code ${code})`)));
      worker.postMessage(html);
    });
  } finally {
    await worker.terminate();
  }
}
