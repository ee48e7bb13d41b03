import type { Usage } from "@yoake/llm-worker";
import { Box, Text } from "ink";
import { formatCost, usageCost } from "../../cost.js";
import { screenText } from "../../screen-text.js";
import type { ModelSummary } from "../pod-like.js";
import { sessionTotal } from "../state/session-usage.js";
import type { Activity, RetryState, SessionUsage } from "../state/ui-state.js";
import { firstLine, formatDuration, formatTokens } from "./format.js";
import { useNow } from "./use-now.js";

export interface StatusBarProps {
  activity: Activity;
  runStartedAt?: number;
  usage: SessionUsage;
  model?: ModelSummary;
  /** The effort level (`--effort`, `/effort`), when one is set. */
  effort?: string;
  /** A request being sent again after a provider error: shown instead of "working" until the stream resumes. */
  retry?: RetryState;
  /** When the current request went to the provider, until it answered (see `UiState`). */
  providerWaitSince?: number;
  /** The terminal's width: the bar keeps to one row of it. */
  columns?: number;
}

/**
 * One row under the input: what the session is doing, then the model, tokens and cost so far. It
 * never wraps: in a narrow terminal the usage line drops its least important parts first (effort,
 * model, context, cost, output tokens), and what still does not fit is cut.
 */
export function StatusBar({
  activity,
  runStartedAt,
  usage,
  model,
  effort,
  retry,
  providerWaitSince,
  columns,
}: StatusBarProps) {
  const now = useNow(activity === "running");
  const providerWaitMs = providerWaitSince === undefined ? 0 : now - providerWaitSince;
  const label =
    activity === "running" && retry !== undefined
      ? retryLabel(retry, now)
      : activity === "running" && providerWaitMs >= PROVIDER_WAIT_SHOWN_AFTER_MS
        ? providerWaitLabel(providerWaitMs)
        : activityLabel(activity, runStartedAt === undefined ? undefined : now - runStartedAt);
  const room = columns === undefined ? Number.POSITIVE_INFINITY : columns - widthOf(label) - GAP;
  const usageText = fitParts(usageParts(usage, model, effort), room);
  return (
    <Box justifyContent="space-between">
      <Text wrap="truncate-end">
        <Text {...(label.color === undefined ? { dimColor: true } : { color: label.color })}>
          {label.head}
        </Text>
        <Text dimColor>{label.tail}</Text>
      </Text>
      {usageText !== "" && (
        <Box flexShrink={0} marginLeft={GAP}>
          <Text dimColor>{usageText}</Text>
        </Box>
      )}
    </Box>
  );
}

/** Columns between what the session does and the usage line. */
const GAP = 2;

/** The activity as text: `head` in its colour (dim without one), `tail` dim. */
interface ActivityLabel {
  head: string;
  color?: string;
  tail: string;
}

function activityLabel(activity: Activity, elapsedMs: number | undefined): ActivityLabel {
  switch (activity) {
    case "running":
      return {
        head: "● working",
        color: "cyan",
        tail: `${elapsedMs === undefined ? "" : ` ${formatDuration(Math.max(0, elapsedMs))}`} · esc to cancel`,
      };
    case "awaiting_approval":
      return { head: "? waiting for your approval", color: "yellow", tail: "" };
    case "idle":
      return { head: "○ ready · /help", tail: "" };
    case "disconnected":
      return { head: "✕ yoake serve stopped · /quit", color: "red", tail: "" };
  }
}

/**
 * A provider answers within a second or two; past this, "working" would hide that nothing comes,
 * for as long as the request's timeouts take (tens of seconds before the first retry).
 */
const PROVIDER_WAIT_SHOWN_AFTER_MS = 3000;

/** `● waiting for the provider 12 s · esc to cancel`: the request is out, nothing came back yet. */
function providerWaitLabel(waitedMs: number): ActivityLabel {
  return {
    head: `● waiting for the provider ${Math.floor(waitedMs / 1000)} s`,
    color: "yellow",
    tail: " · esc to cancel",
  };
}

/** `↻ retrying 2/4 in 3 s… anthropic: 529 Overloaded · esc to cancel`; no countdown once the request went again. */
function retryLabel(retry: RetryState, now: number): ActivityLabel {
  const seconds = Math.ceil((retry.sendsAt - now) / 1000);
  return {
    head: `↻ retrying ${retry.attempt}/${retry.maxAttempts}${seconds > 0 ? ` in ${seconds} s` : ""}…`,
    color: "yellow",
    tail: ` ${firstLine(retry.reason, RETRY_REASON_CHARS)} · esc to cancel`,
  };
}

function widthOf(label: ActivityLabel): number {
  return [...label.head].length + [...label.tail].length;
}

/** The provider's reason is cut to this, so the usage line keeps its room. */
const RETRY_REASON_CHARS = 60;

/** One part of the usage line; the lowest `rank` is dropped first when the terminal is narrow. */
interface UsagePart {
  text: string;
  rank: number;
}

/** `claude-sonnet-4-5 · effort high · 12.3k in (9.1k cached) · 456 out · $0.0123 · 6% of context`, in parts
 * ranked by what a narrow terminal keeps longest: tokens in, out, cost, context, model, effort. */
function usageParts(usage: SessionUsage, model: ModelSummary | undefined, effort?: string): UsagePart[] {
  const total = sessionTotal(usage);
  const parts: UsagePart[] = [];
  if (model !== undefined) parts.push({ text: screenText(model.ref ?? model.id), rank: 2 });
  if (effort !== undefined) parts.push({ text: `effort ${effort}`, rank: 1 });
  const input = total.inputTokens ?? 0;
  const cached = total.cacheReadInputTokens ?? 0;
  parts.push({
    text: `${formatTokens(input)} in${cached > 0 ? ` (${formatTokens(cached)} cached)` : ""}`,
    rank: 7,
  });
  parts.push({ text: `${formatTokens(total.outputTokens ?? 0)} out`, rank: 6 });
  // Finished responses at the prices they were given at; the streaming one at the model's now.
  const liveCost =
    usage.live === undefined || !spentTokens(usage.live) ? 0 : usageCost(usage.live, model?.prices);
  // Some tokens had no price (a model the catalogue does not know): the sum is a lower bound.
  const unpriced = usage.unpriced === true || liveCost === undefined;
  // Nothing priced yet and no prices now: no cost to show.
  const cost =
    usage.cost === undefined && model?.prices === undefined ? undefined : (usage.cost ?? 0) + (liveCost ?? 0);
  if (cost !== undefined) parts.push({ text: `${formatCost(cost)}${unpriced ? "+" : ""}`, rank: 5 });
  const window = model?.contextWindow;
  const prompt = usage.live?.inputTokens ?? usage.lastInputTokens;
  if (window !== undefined && window > 0 && prompt !== undefined)
    parts.push({ text: `${Math.round((prompt / window) * 100)}% of context`, rank: 4 });
  else if (prompt !== undefined) parts.push({ text: `${formatTokens(prompt)} in context`, rank: 4 });
  return parts;
}

/** The parts joined with ` · `, the lowest ranked left out until the line fits in `room` columns. */
function fitParts(parts: readonly UsagePart[], room: number): string {
  let kept = [...parts];
  const line = () => kept.map((part) => part.text).join(" · ");
  while (kept.length > 0 && [...line()].length > room) {
    const lowest = Math.min(...kept.map((part) => part.rank));
    kept = kept.filter((part) => part.rank !== lowest);
  }
  return line();
}

function spentTokens(usage: Usage): boolean {
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) > 0;
}
