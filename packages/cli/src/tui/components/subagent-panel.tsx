import type { PodEventOf } from "@yoake/pod";
import { Box, Text } from "ink";
import { useEffect, useState } from "react";
import type { PodLike } from "../pod-like.js";

/** One running sub-agent, folded: what it was asked, how many tool calls it made, the latest. */
interface RunningChild {
  callId: string;
  description: string;
  calls: number;
  latest?: string;
}

/**
 * The sub-agents of the running `task` calls, one folded line each under the transcript, kept
 * current by the Pod's `subagent` events; a child's line goes when it ends (its answer is the
 * `task` card's result).
 */
export function SubagentPanel({ pod }: { pod: PodLike }) {
  const [children, setChildren] = useState<readonly RunningChild[]>([]);
  useEffect(
    () =>
      pod.listen((event) => {
        if (event.type === "subagent") setChildren((current) => nextChildren(current, event));
      }),
    [pod],
  );
  if (children.length === 0) return null;
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {children.map((child) => (
        <Text key={child.callId} dimColor>
          ⎿ sub-agent: {child.description} · {child.calls} tool call{child.calls === 1 ? "" : "s"}
          {child.latest === undefined ? "" : ` · ${child.latest}`}
        </Text>
      ))}
    </Box>
  );
}

function nextChildren(
  current: readonly RunningChild[],
  event: PodEventOf<"subagent">,
): readonly RunningChild[] {
  switch (event.state) {
    case "started":
      return [...current, { callId: event.callId, description: event.description, calls: 0 }];
    case "tool":
      return current.map((child) =>
        child.callId === event.callId ? { ...child, calls: child.calls + 1, latest: event.tool } : child,
      );
    case "ended":
      return current.filter((child) => child.callId !== event.callId);
  }
}
