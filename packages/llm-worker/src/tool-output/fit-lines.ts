import { CUT_MARKER_BYTES, cutToBytes, utf8Length } from "./utf8.js";

/**
 * Fits lines into `budget` bytes of text (separators not counted) by sharing it fairly: lines
 * shorter than an equal share stay whole, and what they leave is split equally among the longer
 * ones, which are cut with `…`. A megabyte line so cannot crowd out the lines around it, and short
 * lines are never cut to make room for a long one.
 */
export function fitLines(lines: readonly string[], budget: number): string[] {
  const lengths = lines.map(utf8Length);
  let total = 0;
  for (const length of lengths) total += length;
  if (total <= budget || lines.length === 0) return [...lines];

  const allowance = lengths.slice();
  const byLength = lines.map((_, index) => index).sort((a, b) => (lengths[a] ?? 0) - (lengths[b] ?? 0));
  let remaining = Math.max(0, budget);
  let left = lines.length;
  let firstCut = lines.length;
  for (let rank = 0; rank < byLength.length; rank++) {
    const index = byLength[rank] ?? 0;
    const length = lengths[index] ?? 0;
    if (length > Math.floor(remaining / left)) {
      firstCut = rank;
      break;
    }
    remaining -= length;
    left--;
  }
  // Every line from `firstCut` on is longer than the share: they all get it, and the bytes a
  // floor division leaves over go to the earliest of them.
  const share = Math.floor(remaining / left);
  let spare = remaining - share * left;
  const cut = byLength.slice(firstCut).sort((a, b) => a - b);
  for (const index of cut) {
    allowance[index] = share + (spare > 0 ? 1 : 0);
    if (spare > 0) spare--;
  }
  return lines.map((line, index) =>
    (allowance[index] ?? 0) >= (lengths[index] ?? 0) ? line : cutToBytes(line, allowance[index] ?? 0),
  );
}

/**
 * Keeps whole lines from the start while they fit in `budget` bytes (joined with `\n`); when some
 * must go, the last line says so with `more(dropped)` (e.g. `… (+12 more keys)`), and room for it
 * is kept. A first line longer than the budget is cut rather than dropped.
 */
export function takeLines(
  lines: readonly string[],
  budget: number,
  more: (dropped: number) => string,
): string[] {
  const lengths = lines.map(utf8Length);
  let total = Math.max(0, lines.length - 1);
  for (const length of lengths) total += length;
  if (total <= budget) return [...lines];

  let used = 0;
  let kept = 0;
  for (; kept < lines.length; kept++) {
    const rest = lines.length - kept - 1;
    const needed = used + (lengths[kept] ?? 0) + (rest > 0 ? 1 + utf8Length(more(rest)) : 0);
    if (needed > budget) break;
    used += (lengths[kept] ?? 0) + 1;
  }
  if (kept === 0) {
    const notice = lines.length > 1 ? [more(lines.length - 1)] : [];
    const room = budget - (notice.length > 0 ? 1 + utf8Length(notice[0] ?? "") : 0);
    if (room > CUT_MARKER_BYTES) return [cutToBytes(lines[0] ?? "", room), ...notice];
    const all = more(lines.length);
    return utf8Length(all) <= budget ? [all] : [];
  }
  return [...lines.slice(0, kept), more(lines.length - kept)];
}

/** Bytes of `lines` joined with `\n`, plus the `\n` that joins them to what follows. */
export function blockBytes(lines: readonly string[]): number {
  let bytes = 0;
  for (const line of lines) bytes += utf8Length(line) + 1;
  return bytes;
}
