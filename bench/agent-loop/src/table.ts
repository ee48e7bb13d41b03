import type { BenchScheme } from "./conversation.js";
import { type FrameworkName, frameworks } from "./frameworks/index.js";

/** What a measured process reports for one whole conversation (medians over its conversations). */
export interface ChildSample {
  cpuMs: number;
  wallMs: number;
  rssMB: number;
}

/** One contender on one scheme: a sample per process, or why it could not be measured. */
export interface CaseResult {
  name: FrameworkName;
  scheme: BenchScheme;
  samples: ChildSample[];
  error?: string;
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/**
 * A markdown table, one block of rows per scheme: ours first, then the others by CPU per round.
 * Per-round figures divide a whole conversation (final answer included) by its tool rounds.
 */
export function formatTable(cases: readonly CaseResult[], rounds: number): string {
  const rows = [
    "| scheme | framework | CPU ms / round | wall ms / round | peak RSS MB | CPU vs ours | wall vs ours |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  const schemes = [...new Set(cases.map((c) => c.scheme))];
  for (const scheme of schemes) {
    const measured = cases
      .filter((c) => c.scheme === scheme)
      .map((c) => ({
        ...c,
        cpu: c.error ? Number.NaN : median(c.samples.map((s) => s.cpuMs)) / rounds,
        wall: c.error ? Number.NaN : median(c.samples.map((s) => s.wallMs)) / rounds,
        rss: c.error ? Number.NaN : median(c.samples.map((s) => s.rssMB)),
      }))
      .sort((a, b) => (a.name === "yoake" ? -1 : b.name === "yoake" ? 1 : a.cpu - b.cpu));
    const ours = measured.find((c) => c.name === "yoake");
    for (const c of measured) {
      const label = frameworks[c.name].label;
      if (c.error) {
        rows.push(`| ${scheme} | ${label} | failed: ${c.error.replaceAll("|", "\\|")} | | | | |`);
        continue;
      }
      const ratio = (value: number, base: number | undefined): string =>
        base === undefined || Number.isNaN(base) ? "–" : `${(value / base).toFixed(2)}x`;
      rows.push(
        `| ${scheme} | ${label} | ${c.cpu.toFixed(2)} | ${c.wall.toFixed(2)} | ${c.rss.toFixed(0)} | ${ratio(c.cpu, ours?.cpu)} | ${ratio(c.wall, ours?.wall)} |`,
      );
    }
  }
  return rows.join("\n");
}
