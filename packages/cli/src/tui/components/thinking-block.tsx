import { Box, Text } from "ink";
import { firstLine } from "./format.js";

export interface ThinkingBlockProps {
  text: string;
  /** Whole (true), or folded to one line with its size (false). */
  expanded: boolean;
  /** Still streaming: folded, it shows the latest line, so progress is visible. */
  live: boolean;
}

/** The model's reasoning, dimmed; Ctrl+T unfolds it. */
export function ThinkingBlock({ text, expanded, live }: ThinkingBlockProps) {
  const trimmed = text.trimEnd();
  const lineCount = trimmed === "" ? 0 : trimmed.split("\n").length;
  if (expanded) {
    return (
      <Box flexDirection="column" marginTop={1}>
        <Text dimColor italic>
          ✻ Thinking{live ? "…" : ""}
        </Text>
        <Box paddingLeft={2}>
          <Text dimColor italic>
            {trimmed}
          </Text>
        </Box>
      </Box>
    );
  }
  const latest = live ? trimmed.slice(trimmed.lastIndexOf("\n") + 1) : "";
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text dimColor italic>
        ✻ Thinking{live ? "…" : ""} ({lineCount} {lineCount === 1 ? "line" : "lines"}, ctrl+t to show)
      </Text>
      {latest !== "" && (
        <Box paddingLeft={2}>
          <Text dimColor italic wrap="truncate-end">
            {firstLine(latest, 200)}
          </Text>
        </Box>
      )}
    </Box>
  );
}
