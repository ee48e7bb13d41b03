import { Box, Static } from "ink";
import type { Entry } from "../state/ui-state.js";
import { EntryView } from "./entry-view.js";

export interface MessageListProps {
  /** Final entries: printed once into the terminal's scrollback, never redrawn. */
  committed: readonly Entry[];
  /** Entries still changing, redrawn as events arrive. */
  live: readonly Entry[];
  showThinking: boolean;
}

/** The transcript: what is final scrolls away as the terminal's own history; the rest stays live. */
export function MessageList({ committed, live, showThinking }: MessageListProps) {
  return (
    <>
      <Static items={committed as Entry[]}>
        {(entry) => <EntryView key={entry.id} entry={entry} showThinking={showThinking} />}
      </Static>
      <Box flexDirection="column">
        {live.map((entry) => (
          <EntryView key={entry.id} entry={entry} showThinking={showThinking} />
        ))}
      </Box>
    </>
  );
}
