import { Box, Text } from "ink";
import { screenText } from "../../screen-text.js";
import type { FuzzyMatch } from "../files/fuzzy-match.js";

export interface FilePickerProps {
  matches: readonly FuzzyMatch[];
  selected: number;
  /** The file list is still being read. */
  loading: boolean;
  /** The project had more files than were listed. */
  truncated: boolean;
}

/**
 * The `@` completion list under the input: best matches first, matched characters highlighted.
 * A cloned repository names its files: they are shown as screen text (`screenText`), and the
 * path inserted is the file's real name.
 */
export function FilePicker({ matches, selected, loading, truncated }: FilePickerProps) {
  if (matches.length === 0) {
    return <Text dimColor> {loading ? "listing files…" : "no matching file (Esc to close)"}</Text>;
  }
  return (
    <Box flexDirection="column">
      {matches.map((match, i) => (
        <Box key={match.path}>
          <Text color={i === selected ? "cyan" : undefined}>{i === selected ? " › " : "   "}</Text>
          <HighlightedPath match={match} selected={i === selected} />
        </Box>
      ))}
      <Text dimColor>
        {"   "}↑↓ choose · Tab or Enter to attach · Esc to close
        {truncated ? " · large project: not every file is listed" : ""}
      </Text>
    </Box>
  );
}

function HighlightedPath({ match, selected }: { match: FuzzyMatch; selected: boolean }) {
  const parts: Array<{ text: string; hit: boolean }> = [];
  const hits = new Set(match.positions);
  for (let i = 0; i < match.path.length; i++) {
    const hit = hits.has(i);
    const last = parts[parts.length - 1];
    if (last !== undefined && last.hit === hit) last.text += match.path[i];
    else parts.push({ text: match.path[i] as string, hit });
  }
  return (
    <Text color={selected ? "cyan" : undefined}>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: runs of one path, in order
        <Text key={i} bold={part.hit} underline={part.hit}>
          {screenText(part.text)}
        </Text>
      ))}
    </Text>
  );
}
