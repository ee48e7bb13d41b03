/** When and how a Pod compacts its session (`Pod.create({ compaction })`). */
export interface CompactionSettings {
  /** Compact on its own when the prompt nears the window (default true; needs a known window). */
  auto?: boolean;
  /** The share of the usable window (the window less `reserveTokens`) that triggers it (default 0.8). */
  threshold?: number;
  /**
   * Room kept for the compaction request itself: its instruction and the summary the model writes
   * (default 8192). The summary is asked for with `summaryTokens` as its output limit.
   */
  reserveTokens?: number;
  /** The summary's output limit (default 4096). */
  summaryTokens?: number;
  /** The model's context window; default the manifest's (`model.context_window`, or the catalogue's). */
  contextWindow?: number;
  /** Automatic compaction turns itself off after this many failures in a row (default 3). */
  maxFailures?: number;
  /** Bytes of files read again into the new session, newest read first (default 65536); each file is capped like a file reference. */
  rereadBytes?: number;
}

/** `CompactionSettings` with every default filled in. */
export type ResolvedCompactionSettings = Required<Omit<CompactionSettings, "contextWindow">> & {
  contextWindow: number | undefined;
};

export const DEFAULT_COMPACTION_THRESHOLD = 0.8;
export const DEFAULT_COMPACTION_RESERVE_TOKENS = 8192;
export const DEFAULT_SUMMARY_TOKENS = 4096;
export const DEFAULT_COMPACTION_MAX_FAILURES = 3;
export const DEFAULT_REREAD_BYTES = 64 * 1024;

/** Fills in the defaults; a threshold outside (0, 1] or a negative count is a configuration error. */
export function resolveCompactionSettings(
  settings: CompactionSettings,
  manifestWindow: number | undefined,
): ResolvedCompactionSettings {
  const resolved: ResolvedCompactionSettings = {
    auto: settings.auto ?? true,
    threshold: settings.threshold ?? DEFAULT_COMPACTION_THRESHOLD,
    reserveTokens: settings.reserveTokens ?? DEFAULT_COMPACTION_RESERVE_TOKENS,
    summaryTokens: settings.summaryTokens ?? DEFAULT_SUMMARY_TOKENS,
    contextWindow: settings.contextWindow ?? manifestWindow,
    maxFailures: settings.maxFailures ?? DEFAULT_COMPACTION_MAX_FAILURES,
    rereadBytes: settings.rereadBytes ?? DEFAULT_REREAD_BYTES,
  };
  if (!(resolved.threshold > 0 && resolved.threshold <= 1))
    throw new RangeError(`compaction.threshold must be in (0, 1], got ${resolved.threshold}`);
  for (const key of ["reserveTokens", "summaryTokens", "maxFailures", "rereadBytes"] as const) {
    const value = resolved[key];
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`compaction.${key} must be a whole number >= 0, got ${value}`);
  }
  return resolved;
}

/**
 * The prompt size, in tokens, at which automatic compaction starts: `threshold` of the window less
 * the reserve, so the compaction request (history, instruction and summary) still fits even when
 * the last step overshot the trigger. Undefined when the window is unknown: nothing to measure
 * against, so automatic compaction is off.
 */
export function compactionTriggerTokens(settings: ResolvedCompactionSettings): number | undefined {
  const window = settings.contextWindow;
  if (window === undefined || window <= settings.reserveTokens) return undefined;
  return Math.floor((window - settings.reserveTokens) * settings.threshold);
}
