/**
 * What a provider says about its limits when it refuses a request: whether the refusal is a spent
 * quota (waiting a few seconds will not help) or a rate limit (it will), and when the limit lifts.
 *
 * Sources, as the providers document them:
 * - Anthropic: `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{remaining,reset}`
 *   headers, the reset an RFC 3339 time; a spent prepaid balance is a 400 "credit balance is too low".
 * - OpenAI: `x-ratelimit-{remaining,reset}-{requests,tokens}` headers, the reset a duration (`1s`,
 *   `6m0s`, `20ms`); a spent quota is the code `insufficient_quota`.
 * - Gemini: `RESOURCE_EXHAUSTED` with `google.rpc.QuotaFailure` details (the quota by its id, e.g.
 *   `GenerateRequestsPerDayPerProjectPerModel-FreeTier`) and `google.rpc.RetryInfo` (`retryDelay`).
 */
export interface LimitDetails {
  /** The refusal is a spent quota: a daily limit, a zero allowance, an empty balance. */
  quotaExhausted: boolean;
  /** When the limit lifts, if the provider said (epoch milliseconds). */
  resetAt?: number;
  /** The wait the body asks for (Gemini `RetryInfo`), for providers that send no `retry-after`. */
  retryDelayMs?: number;
}

const ANTHROPIC_LIMITS = ["requests", "tokens", "input-tokens", "output-tokens"];
const OPENAI_LIMITS = ["requests", "tokens"];
/** Anthropic's answer once the prepaid credits are spent (a 400, not a 429). */
const EMPTY_BALANCE = /credit balance is too low/i;

/** Reads the limit details of an error response; `code` and `message` as the body gave them. */
export function limitDetails(
  headers: Headers,
  raw: unknown,
  code: string | undefined,
  message: string,
  now: number = Date.now(),
): LimitDetails {
  const gemini = geminiDetails(raw);
  const retryDelayMs = gemini.retryDelayMs;
  const resetAt =
    anthropicReset(headers) ??
    openaiReset(headers, now) ??
    (retryDelayMs !== undefined ? now + retryDelayMs : undefined);
  const quotaExhausted = code === "insufficient_quota" || EMPTY_BALANCE.test(message) || gemini.quota;
  return {
    quotaExhausted,
    ...(resetAt !== undefined && { resetAt }),
    ...(retryDelayMs !== undefined && { retryDelayMs }),
  };
}

/** The latest reset among the exhausted limits (remaining 0), else among all that were sent. */
function latestReset(
  limits: readonly string[],
  remainingOf: (limit: string) => string | null,
  resetOf: (limit: string) => number | undefined,
): number | undefined {
  const resets = limits.map((limit) => ({ limit, at: resetOf(limit) })).filter((r) => r.at !== undefined);
  const exhausted = resets.filter((r) => remainingOf(r.limit)?.trim() === "0");
  const chosen = exhausted.length > 0 ? exhausted : resets;
  return chosen.length === 0 ? undefined : Math.max(...chosen.map((r) => r.at as number));
}

function anthropicReset(headers: Headers): number | undefined {
  return latestReset(
    ANTHROPIC_LIMITS,
    (limit) => headers.get(`anthropic-ratelimit-${limit}-remaining`),
    (limit) => {
      const at = Date.parse(headers.get(`anthropic-ratelimit-${limit}-reset`) ?? "");
      return Number.isNaN(at) ? undefined : at;
    },
  );
}

function openaiReset(headers: Headers, now: number): number | undefined {
  return latestReset(
    OPENAI_LIMITS,
    (limit) => headers.get(`x-ratelimit-remaining-${limit}`),
    (limit) => {
      const ms = parseDuration(headers.get(`x-ratelimit-reset-${limit}`));
      return ms === undefined ? undefined : now + ms;
    },
  );
}

const DURATION_UNITS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** A Go-style duration (`6m0s`, `1.5s`, `20ms`, `1h2m3s`), as OpenAI and Google write them. */
export function parseDuration(text: string | null | undefined): number | undefined {
  const value = text?.trim();
  if (!value || !/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(value)) return undefined;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g))
    total += Number(amount) * (DURATION_UNITS[unit as string] as number);
  return Math.round(total);
}

/** A Gemini quota id of a limit that refills only the next day. */
const DAILY_QUOTA = /PerDay/i;

function geminiDetails(raw: unknown): { quota: boolean; retryDelayMs?: number } {
  const body = Array.isArray(raw) ? raw[0] : raw;
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!Array.isArray(details)) return { quota: false };
  let quota = false;
  let retryDelayMs: number | undefined;
  for (const detail of details) {
    if (typeof detail !== "object" || detail === null) continue;
    const d = detail as { "@type"?: unknown; violations?: unknown; retryDelay?: unknown };
    const type = typeof d["@type"] === "string" ? d["@type"] : "";
    if (type.endsWith("google.rpc.RetryInfo") && typeof d.retryDelay === "string")
      retryDelayMs = parseDuration(d.retryDelay);
    if (type.endsWith("google.rpc.QuotaFailure") && Array.isArray(d.violations))
      quota ||= d.violations.some(isSpentQuota);
  }
  return { quota, ...(retryDelayMs !== undefined && { retryDelayMs }) };
}

/** A daily quota, or an allowance of zero (the tier has no quota for this model at all). */
function isSpentQuota(violation: unknown): boolean {
  if (typeof violation !== "object" || violation === null) return false;
  const v = violation as { quotaId?: unknown; quotaValue?: unknown };
  return (typeof v.quotaId === "string" && DAILY_QUOTA.test(v.quotaId)) || String(v.quotaValue) === "0";
}
