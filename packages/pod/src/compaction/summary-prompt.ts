/**
 * The instruction of the compaction request, sent as the last user message after the whole
 * history. The sections are the ones issue 7 names; asking for them by heading keeps the summary
 * scannable for the model that continues from it, and for a person reading the log.
 */
export const COMPACTION_INSTRUCTION = [
  "The context window is nearly full. This conversation is about to be replaced by a summary you write now,",
  "and that summary is all you will have to continue the work, so make it complete and precise.",
  "Do not call tools. Answer with the summary only, in Markdown, under exactly these headings:",
  "",
  "## Goal",
  "What the user wants, in their terms, with every requirement and constraint they stated.",
  "## Decisions",
  "What was decided and why, including approaches tried and rejected.",
  "## State of the work",
  "What is done and verified, what is half-done, and anything broken right now.",
  "## Files touched",
  "Every file read, created or changed, one per line, with what was done to it.",
  "## What remains",
  "The next steps, in order, specific enough to start on without asking.",
].join("\n");

/** The line that opens every summary in history, so the model (and a reader) knows what it is. */
export const SUMMARY_HEADING =
  "[This session was compacted: the conversation before this point was replaced by the summary below.]";

/**
 * The user message a summary becomes at the head of the new session (and, verbatim, the
 * `compaction` entry's `summary`). Mid-run, the request being worked on is repeated word for word:
 * a summary paraphrases, and the model must go on with what the user actually asked.
 */
export function frameSummary(summary: string, inProgress: string | undefined): string {
  const parts = [SUMMARY_HEADING, "", summary.trim()];
  if (inProgress !== undefined) {
    parts.push(
      "",
      "The request being worked on when the session was compacted, verbatim:",
      "<request>",
      inProgress,
      "</request>",
      "",
      "Continue that work from where it stopped; do not redo what the summary says is done.",
    );
  }
  return parts.join("\n");
}
