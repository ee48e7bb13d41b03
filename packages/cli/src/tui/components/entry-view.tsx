import type { AlertLevel } from "@yoake/pod";
import { Box, Text } from "ink";
import type { Entry, NoticeTone } from "../state/ui-state.js";
import { ThinkingBlock } from "./thinking-block.js";
import { ToolCard } from "./tool-card.js";

export interface EntryViewProps {
  entry: Entry;
  showThinking: boolean;
}

/** One transcript entry, whatever its kind. */
export function EntryView({ entry, showThinking }: EntryViewProps) {
  switch (entry.kind) {
    case "user":
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>
            {"› "}
          </Text>
          <Text bold>{entry.text}</Text>
        </Box>
      );
    case "assistant":
      return (
        <Box marginTop={1}>
          <Text>{entry.text}</Text>
        </Box>
      );
    case "thinking":
      return <ThinkingBlock text={entry.text} expanded={showThinking} live={!entry.done} />;
    case "tool":
      return <ToolCard card={entry.card} />;
    case "attachment":
      return <Text dimColor> ⎿ attached {entry.path}</Text>;
    case "alert":
      return (
        <Box marginTop={1}>
          <Text color={ALERT_COLOR[entry.level]}>
            {ALERT_ICON[entry.level]} {entry.message}
          </Text>
          <Text dimColor> ({entry.source})</Text>
        </Box>
      );
    case "notice":
      return (
        <Box marginTop={1}>
          <Text {...NOTICE_STYLE[entry.tone]}>{entry.text}</Text>
        </Box>
      );
  }
}

const ALERT_COLOR: Record<AlertLevel, string> = { info: "blue", warn: "yellow", error: "red" };
const ALERT_ICON: Record<AlertLevel, string> = { info: "ℹ", warn: "⚠", error: "✗" };

const NOTICE_STYLE: Record<NoticeTone, { color?: string; dimColor?: boolean; bold?: boolean }> = {
  title: { bold: true },
  info: {},
  success: { color: "green" },
  warn: { color: "yellow" },
  error: { color: "red" },
  muted: { dimColor: true },
};
