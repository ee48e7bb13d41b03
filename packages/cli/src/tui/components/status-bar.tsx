import { Box, Text } from "ink";
import { formatCost, usageCost } from "../../cost.js";
import type { ModelSummary } from "../pod-like.js";
import { sessionTotal } from "../state/session-usage.js";
import type { Activity, SessionUsage } from "../state/ui-state.js";
import { formatDuration, formatTokens } from "./format.js";
import { useNow } from "./use-now.js";

export interface StatusBarProps {
  activity: Activity;
  runStartedAt?: number;
  usage: SessionUsage;
  model?: ModelSummary;
  /** The effort level (`--effort`, `/effort`), when one is set. */
  effort?: string;
}

/** One line under the input: what the session is doing, the model, tokens and cost so far. */
export function StatusBar({ activity, runStartedAt, usage, model, effort }: StatusBarProps) {
  const now = useNow(activity === "running");
  return (
    <Box justifyContent="space-between">
      <ActivityText
        activity={activity}
        elapsedMs={runStartedAt === undefined ? undefined : now - runStartedAt}
      />
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
  }
}

/** `claude-sonnet-4-5 · effort high · 12.3k in (9.1k cached) · 456 out · $0.0123 · 6% of context`. */
export function usageLine(usage: SessionUsage, model: ModelSummary | undefined, effort?: string): string {
  const total = sessionTotal(usage);
  const parts: string[] = [];
  if (model !== undefined) parts.push(model.ref ?? model.id);
  if (effort !== undefined) parts.push(`effort ${effort}`);
  const input = total.inputTokens ?? 0;
  const cached = total.cacheReadInputTokens ?? 0;
  parts.push(`${formatTokens(input)} in${cached > 0 ? ` (${formatTokens(cached)} cached)` : ""}`);
  parts.push(`${formatTokens(total.outputTokens ?? 0)} out`);
  const cost = model?.prices === undefined ? undefined : usageCost(total, model.prices);
  if (cost !== undefined) parts.push(formatCost(cost));
  const window = model?.contextWindow;
  const prompt = usage.live?.inputTokens ?? usage.lastInputTokens;
  if (window !== undefined && window > 0 && prompt !== undefined)
    parts.push(`${Math.round((prompt / window) * 100)}% of context`);
  return parts.join(" · ");
}
