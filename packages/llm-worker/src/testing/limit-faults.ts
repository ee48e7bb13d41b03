import type { SchemeName } from "../llm-client/item.js";
import type { MockFault } from "./mock-provider.js";

/**
 * A refusal for a limit, with the status, headers and body the provider documents for it:
 * - `rate_limit`: a per-minute limit that waiting lifts (Anthropic 429 `rate_limit_error` with
 *   `retry-after` and `anthropic-ratelimit-*` headers; OpenAI 429 `rate_limit_exceeded` with
 *   `x-ratelimit-*`; Gemini 429 `RESOURCE_EXHAUSTED` naming a per-minute quota, with `RetryInfo`;
 *   Ollama, which has no limits of its own, a plain 429 as a proxy in front of it sends).
 * - `quota`: a spent quota (Anthropic 400 "credit balance is too low"; OpenAI 429
 *   `insufficient_quota`; Gemini 429 `RESOURCE_EXHAUSTED` naming a per-day quota, with `RetryInfo`
 *   until it resets). Ollama has none: it gets the rate limit.
 * `resetInMs` is when the limit lifts, counted from `now`.
 */
export function limitFault(
  scheme: SchemeName,
  limit: "rate_limit" | "quota",
  resetInMs: number,
  now: number = Date.now(),
): MockFault {
  const seconds = Math.max(0, Math.ceil(resetInMs / 1000));
  switch (scheme) {
    case "anthropic":
      return limit === "quota" ? anthropicEmptyBalance() : anthropicRateLimit(resetInMs, now, seconds);
    case "openai-chat":
    case "openai-responses":
      return limit === "quota" ? openaiQuota() : openaiRateLimit(resetInMs, seconds);
    case "gemini":
      return geminiExhausted(limit, seconds);
    case "ollama":
      return { fault: "status", status: 429, body: { error: "too many requests" } };
  }
}

function anthropicRateLimit(resetInMs: number, now: number, seconds: number): MockFault {
  const reset = new Date(now + resetInMs).toISOString().replace(/\.\d{3}Z$/, "Z");
  return {
    fault: "status",
    status: 429,
    headers: {
      "retry-after": String(seconds),
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": reset,
      "anthropic-ratelimit-tokens-limit": "40000",
      "anthropic-ratelimit-tokens-remaining": "39000",
      "anthropic-ratelimit-tokens-reset": new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z"),
    },
    body: {
      type: "error",
      error: {
        type: "rate_limit_error",
        message: "This request would exceed the rate limit for your organization of 50 requests per minute.",
      },
    },
  };
}

function anthropicEmptyBalance(): MockFault {
  return {
    fault: "status",
    status: 400,
    body: {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
      },
    },
  };
}

function openaiRateLimit(resetInMs: number, seconds: number): MockFault {
  return {
    fault: "status",
    status: 429,
    headers: {
      "retry-after": String(seconds),
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": `${resetInMs}ms`,
      "x-ratelimit-limit-tokens": "30000",
      "x-ratelimit-remaining-tokens": "29000",
      "x-ratelimit-reset-tokens": "0s",
    },
    body: {
      error: {
        message: "Rate limit reached for gpt-5 on requests per min (RPM): Limit 500, Used 500, Requested 1.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    },
  };
}

function openaiQuota(): MockFault {
  return {
    fault: "status",
    status: 429,
    body: {
      error: {
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    },
  };
}

function geminiExhausted(limit: "rate_limit" | "quota", seconds: number): MockFault {
  const daily = limit === "quota";
  const quotaId = daily
    ? "GenerateRequestsPerDayPerProjectPerModel-FreeTier"
    : "GenerateRequestsPerMinutePerProjectPerModel-FreeTier";
  return {
    fault: "status",
    status: 429,
    body: {
      error: {
        code: 429,
        message: `You exceeded your current quota, please check your plan and billing details. Please retry in ${seconds}s.`,
        status: "RESOURCE_EXHAUSTED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [
              {
                quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                quotaId,
                quotaDimensions: { location: "global", model: "gemini-2.5-flash" },
                quotaValue: daily ? "250" : "10",
              },
            ],
          },
          {
            "@type": "type.googleapis.com/google.rpc.Help",
            links: [{ description: "Learn more", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${seconds}s` },
        ],
      },
    },
  };
}
