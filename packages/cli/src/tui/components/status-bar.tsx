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
}

/** One line under the input: what the session is doing, the model, tokens and cost so far. */
export function StatusBar({ activity, runStartedAt, usage, model, effort, retry }: StatusBarProps) {
  const now = useNow(activity === "running");
  return (
    <Box justifyContent="space-between">
      {activity === "running" && retry !== undefined ? (
        <RetryText retry={retry} now={now} />
      ) : (
        <ActivityText
          activity={activity}
          elapsedMs={runStartedAt === undefined ? undefined : now - runStartedAt}
        />
      )}
      <Text dimColor>{usageLine(usage, model, effort)}</Text>
    </Box>
  );
}

function ActivityText({ activity, elapsedMs }: { activity: Activity; elapsedMs: number | undefined }) {
  switch (activity) {
    case "running":
      return (
        <Text>
          <Text color="cyan">● working</Text>
          <Text dimColor>
            {elapsedMs === undefined ? "" : ` ${formatDuration(Math.max(0, elapsedMs))}`} · esc to cancel
          </Text>
        </Text>
      );
    case "awaiting_approval":
      return <Text color="yellow">? waiting for your approval</Text>;
    case "idle":
      return <Text dimColor>○ ready · /help</Text>;
    case "disconnected":
      return <Text color="red">✕ yoake serve stopped · /quit</Text>;
  }
}

/** `↻ retrying 2/4 in 3 s… anthropic: 529 Overloaded · esc to cancel`; no countdown once the request went again. */
function RetryText({ retry, now }: { retry: RetryState; now: number }) {
  const seconds = Math.ceil((retry.sendsAt - now) / 1000);
  return (
    <Text>
      <Text color="yellow">
        ↻ retrying {retry.attempt}/{retry.maxAttempts}
        {seconds > 0 ? ` in ${seconds} s` : ""}…
      </Text>
      <Text dimColor> {firstLine(retry.reason, RETRY_REASON_CHARS)} · esc to cancel</Text>
    </Text>
  );
}

/** The provider's reason is cut to this, so the usage line keeps its room. */
const RETRY_REASON_CHARS = 60;

/** `claude-sonnet-4-5 · effort high · 12.3k in (9.1k cached) · 456 out · $0.0123 · 6% of context`. */
export function usageLine(usage: SessionUsage, model: ModelSummary | undefined, effort?: string): string {
  const total = sessionTotal(usage);
  const parts: string[] = [];
  if (model !== undefined) parts.push(screenText(model.ref ?? model.id));
  if (effort !== undefined) parts.push(`effort ${effort}`);
  const input = total.inputTokens ?? 0;
  const cached = total.cacheReadInputTokens ?? 0;
  parts.push(`${formatTokens(input)} in${cached > 0 ? ` (${formatTokens(cached)} cached)` : ""}`);
  parts.push(`${formatTokens(total.outputTokens ?? 0)} out`);
  // Finished responses at the prices they were given at; the streaming one at the model's now.
  const live = usageCost(usage.live ?? {}, model?.prices);
  const cost = live === undefined ? usage.cost : (usage.cost ?? 0) + live;
  // Some tokens had no price (a model the catalogue does not know): the sum is a lower bound.
  const unpriced = usage.unpriced === true || live === undefined;
  if (cost !== undefined && (cost > 0 || !unpriced)) parts.push(`${formatCost(cost)}${unpriced ? "+" : ""}`);
  const window = model?.contextWindow;
  const prompt = usage.live?.inputTokens ?? usage.lastInputTokens;
  if (window !== undefined && window > 0 && prompt !== undefined)
    parts.push(`${Math.round((prompt / window) * 100)}% of context`);
  else if (prompt !== undefined) parts.push(`${formatTokens(prompt)} in context`);
  return parts.join(" · ");
}
