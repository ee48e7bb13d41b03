import { Box, Text } from "ink";
import type { SubagentState, SubagentToolState } from "../state/ui-state.js";

/** The child's latest tool calls shown under a `task` card; earlier ones are counted. */
const SHOWN_TOOLS = 6;

const TOOL_MARK: Record<SubagentToolState["state"], { glyph: string; color: string }> = {
  running: { glyph: "◐", color: "cyan" },
  done: { glyph: "●", color: "green" },
  failed: { glyph: "✗", color: "red" },
};

/**
 * A `task` call's sub-agent under its card: what it was asked and how it stands, then each of its
 * tool calls folded to one line (mark and label), the latest few while it runs and after it ends.
 */
export function SubagentView({ subagent }: { subagent: SubagentState }) {
  const calls = subagent.tools.length;
  const shown = subagent.tools.slice(-SHOWN_TOOLS);
  return (
    <Box flexDirection="column">
      <Text dimColor>
        ⎿ sub-agent: {subagent.description} · {calls} tool call{calls === 1 ? "" : "s"}
        {subagent.status === undefined ? "" : ` · ${subagent.status}`}
      </Text>
      <Box flexDirection="column" paddingLeft={2}>
        {calls > shown.length && <Text dimColor>… {calls - shown.length} earlier</Text>}
        {shown.map((tool) => (
          <Text key={tool.id} wrap="truncate-end">
            <Text color={TOOL_MARK[tool.state].color}>{TOOL_MARK[tool.state].glyph} </Text>
            <Text dimColor>{tool.label}</Text>
          </Text>
        ))}
      </Box>
    </Box>
  );
}
