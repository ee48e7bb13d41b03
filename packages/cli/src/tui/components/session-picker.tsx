import { Box, type Key, Text } from "ink";
import { useRef, useState } from "react";
import type { SessionSummary } from "../pod-like.js";
import { displayUserText } from "../state/history-entries.js";
import { useKeys } from "./key-router.js";

/** Sessions shown at once; the list scrolls past them. */
const VISIBLE = 10;

export interface SessionPickerProps {
  /** Oldest first, as the Pod lists them; the latest is chosen first. */
  sessions: readonly SessionSummary[];
  /** The session in use now, marked. */
  current?: string;
  onPick(id: string): void;
  onCancel(): void;
}

/** `/resume` without an id: the project's sessions, newest first; Enter resumes, Esc closes. */
export function SessionPicker({ sessions, current, onPick, onCancel }: SessionPickerProps) {
  const newestFirst = [...sessions].reverse();
  const [selected, setSelected] = useState(0);
  // Keys of one chunk must see each other's effect, and a choice must go out once.
  const live = useRef({ selected: 0, done: false });

  useKeys((_input: string, key: Key) => {
    const state = live.current;
    if (state.done) return;
    if (key.escape) {
      state.done = true;
      return onCancel();
    }
    if (key.return) {
      const chosen = newestFirst[state.selected];
      if (chosen === undefined) return;
      state.done = true;
      return onPick(chosen.id);
    }
    if (key.upArrow) state.selected = Math.max(0, state.selected - 1);
    if (key.downArrow) state.selected = Math.min(newestFirst.length - 1, state.selected + 1);
    setSelected(state.selected);
  }, true);

  const first = Math.max(0, Math.min(selected - VISIBLE + 1, newestFirst.length - VISIBLE));
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>Resume a session</Text>
      {newestFirst.slice(first, first + VISIBLE).map((session, i) => {
        const chosen = first + i === selected;
        const when = session.lastActivity ?? session.started ?? "";
        const text = displayUserText(session.firstUserText ?? "").replace(/\s+/g, " ");
        return (
          <Text key={session.id} color={chosen ? "cyan" : undefined} wrap="truncate-end">
            {chosen ? "› " : "  "}
            {session.id.slice(0, 13)} {when} {session.id === current ? "(this one) " : ""}
            <Text dimColor={!chosen}>{text}</Text>
          </Text>
        );
      })}
      <Text dimColor>↑↓ choose · Enter to resume · Esc to close</Text>
    </Box>
  );
}
