import type { Plan, PlanItem, PlanStatus } from "@yoake/pod";
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import { screenText } from "../../screen-text.js";
import type { PodLike } from "../pod-like.js";

const MARK: Record<PlanStatus, { glyph: string; color?: string; dim?: boolean }> = {
  pending: { glyph: "☐" },
  in_progress: { glyph: "▶", color: "cyan" },
  done: { glyph: "✔", color: "green", dim: true },
};

/**
 * The model's plan above the input, kept current by the Pod's `plan_changed` events; a continued
 * session shows the plan it restored from the first frame. Nothing when there is no plan, or when
 * every step is done (the plan was finished; its last version is in the transcript).
 */
export function PlanPanel({ pod }: { pod: PodLike }) {
  const [plan, setPlan] = useState<Plan | undefined>(pod.plan);
  useEffect(
    () =>
      pod.listen((event) => {
        if (event.type === "plan_changed") setPlan(event.plan);
      }),
    [pod],
  );
  if (plan === undefined || plan.items.every((item) => item.status === "done")) return null;
  const done = plan.items.filter((item) => item.status === "done").length;
  return (
    <Box flexDirection="column" borderStyle="round" borderDimColor paddingX={1}>
      <Text bold>
        Plan{plan.goal === undefined ? "" : `: ${screenText(plan.goal)}`}{" "}
        <Text dimColor>
          ({done}/{plan.items.length} done)
        </Text>
      </Text>
      {withKeys(plan.items).map(({ item, key }) => {
        const mark = MARK[item.status];
        return (
          <Text
            key={key}
            {...(mark.color !== undefined && { color: mark.color })}
            dimColor={mark.dim === true}
          >
            {mark.glyph} {screenText(item.content)}
          </Text>
        );
      })}
    </Box>
  );
}

/** A key per step: its text, and how many steps with that text come before it. */
function withKeys(items: readonly PlanItem[]): Array<{ item: PlanItem; key: string }> {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const count = seen.get(item.content) ?? 0;
    seen.set(item.content, count + 1);
    return { item, key: `${count}:${item.content}` };
  });
}
