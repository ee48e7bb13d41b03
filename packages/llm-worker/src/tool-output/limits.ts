/** The seed's numbers (seed 000, "自動サマリ"). */

/** A plain string result up to this many UTF-8 bytes stays inline; above it is stored. */
export const INLINE_LIMIT_BYTES = 800;
/** A generated summary is at most this many UTF-8 bytes. */
export const SUMMARY_LIMIT_BYTES = 400;
/** Lines a text summary shows from the start... */
export const SUMMARY_HEAD_LINES = 5;
/** ...and from the end. */
export const SUMMARY_TAIL_LINES = 3;
/** Entries a JSON array summary shows. */
export const SUMMARY_HEAD_ENTRIES = 2;

/** The section rules of the summaries, as the seed draws them. */
export const RULE = {
  head: "── head ──",
  tail: "── tail ──",
  schema: "── schema ──",
  keys: "── keys ──",
} as const;
