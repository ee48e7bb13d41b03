import { Box, Text } from "ink";
import { headLines } from "./format.js";

export interface DiffViewProps {
  diff: string;
  /** Lines shown before the rest is counted. */
  maxLines: number;
}

/** A unified diff, coloured: additions green, removals red, hunk headers cyan. */
export function DiffView({ diff, maxLines }: DiffViewProps) {
  const { lines, more } = headLines(diff, maxLines);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        // Lines of a diff repeat and never move: their position is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Text key={i} {...diffLineStyle(line)}>
          {line === "" ? " " : line}
        </Text>
      ))}
      {more > 0 && <Text dimColor>… {more} more lines</Text>}
    </Box>
  );
}

function diffLineStyle(line: string): { color?: string; dimColor?: boolean; bold?: boolean } {
  if (line.startsWith("+++") || line.startsWith("---")) return { bold: true };
  if (line.startsWith("+")) return { color: "green" };
  if (line.startsWith("-")) return { color: "red" };
  if (line.startsWith("@@")) return { color: "cyan" };
  return { dimColor: true };
}
