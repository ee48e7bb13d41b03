import type { AlertLevel } from "@yoake/pod";
import { Box, Text } from "ink";
import type { Entry, NoticeTone } from "../state/ui-state.js";
import { ThinkingBlock } from "./thinking-block.js";
import { ToolCard } from "./tool-card.js";

export interface EntryViewProps {
  entry: Entry;
  showThinking: boolean;
  /** The terminal's width: `<Static>` does not hold its items to it. */
  columns?: number;
}

/** One transcript entry, whatever its kind. */
export function EntryView({ entry, showThinking, columns }: EntryViewProps) {
  switch (entry.kind) {
    case "user":
      // The sign in a box of its own width: ink measured "› " one column short, and the text
      // beside it came out one column wider than the terminal.
      return (
        <Box marginTop={1} {...(columns !== undefined && { width: columns })}>
          <Box width={2} flexShrink={0}>
            <Text color="cyan" bold>
              ›
            </Text>
          </Box>
          <Box flexGrow={1} flexShrink={1}>
            <Text bold>{entry.text}</Text>
          </Box>
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
          {/* One text, so the label follows the message where it ends, wrapped or not. */}
          <Text color={ALERT_COLOR[entry.level]}>
            {ALERT_ICON[entry.level]} {entry.message}
            <Text dimColor> ({entry.source})</Text>
          </Text>
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
