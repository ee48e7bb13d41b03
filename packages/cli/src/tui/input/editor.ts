import { matchingCommands } from "../commands/slash-commands.js";
import type { FuzzyMatch } from "../files/fuzzy-match.js";
import { completeFileRef, type FileRefQuery, fileRefQueryAt } from "./file-ref-token.js";
import { type InputHistory, inputHistoryOf, nextInput, previousInput, recordInput } from "./input-history.js";
import type { KeyCommand } from "./key-command.js";
import { type CollapsedPaste, collapsedPaste, expandPastes } from "./pasted-text.js";
import {
  bufferOf,
  deleteBackward,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBackward,
  emptyBuffer,
  insertText,
  isOnFirstLine,
  isOnLastLine,
  moveDown,
  moveLeft,
  moveRight,
  moveToLineEnd,
  moveToLineStart,
  moveUp,
  type TextBuffer,
} from "./text-buffer.js";

/** The input box's whole state: the text, the earlier inputs, and the `@` picker's selection. */
export interface EditorState {
  readonly buffer: TextBuffer;
  readonly history: InputHistory;
  /** The `@` token (by its offset) whose picker Esc closed: it stays closed for that token. */
  readonly dismissedAt?: number;
  readonly selected: number;
  /** The query the selection belongs to: a new query starts again at the best match. */
  readonly selectedFor?: string;
  /** Long pastes in the box, shown by their labels until sent. */
  readonly pastes: readonly CollapsedPaste[];
  /** Ctrl+C found nothing to cancel or clear: one more, with no other key between, leaves. */
  readonly exitArmed?: boolean;
}

/** What a key asks of the world outside the box. */
export type EditorEffect =
  | { type: "submit"; text: string }
  | { type: "escape" }
  | { type: "interrupt" }
  | { type: "exit" }
  | { type: "toggle_thinking" };

export interface EditorStep {
  state: EditorState;
  effect?: EditorEffect;
}

export function editorStateOf(history: readonly string[] = []): EditorState {
  return { buffer: emptyBuffer, history: inputHistoryOf(history), selected: 0, pastes: [] };
}

/** The `@` token the picker completes now, unless Esc closed the picker for it. */
export function openFileQuery(state: EditorState): FileRefQuery | undefined {
  const query = fileRefQueryAt(state.buffer);
  return query === undefined || query.start === state.dismissedAt ? undefined : query;
}

/** The picker's selected row for these matches. */
export function selectedMatch(state: EditorState, query: FileRefQuery, matchCount: number): number {
  if (state.selectedFor !== query.query) return 0;
  return Math.min(state.selected, Math.max(0, matchCount - 1));
}

/**
 * One key applied to the input: with the picker open, Up / Down choose, Tab / Enter attach the
 * chosen file and Esc closes it; otherwise keys edit, Up / Down on the first / last line walk
 * the earlier inputs, and Enter submits (a trailing backslash makes it a newline instead).
 */
export function editorStep(
  state: EditorState,
  command: KeyCommand,
  matchesFor: (query: string) => readonly FuzzyMatch[],
): EditorStep {
  const step = keyStep(state, command, matchesFor);
  if (command.type === "interrupt" || step.state.exitArmed !== true) return step;
  return { ...step, state: { ...step.state, exitArmed: false } };
}

/**
 * Ctrl+C: clears the input if there is any; on an empty input it asks the UI to cancel the
 * running turn (`interrupt`), and when there was none it arms leaving (`armExit`): the next
 * Ctrl+C, with no other key between, leaves (`exit`).
 */
export function interruptStep(state: EditorState, cancelledSomething: boolean): EditorStep {
  if (cancelledSomething) return { state: { ...state, exitArmed: false } };
  if (state.exitArmed === true) return { state: { ...state, exitArmed: false }, effect: { type: "exit" } };
  return { state: { ...state, exitArmed: true } };
}

function keyStep(
  state: EditorState,
  command: KeyCommand,
  matchesFor: (query: string) => readonly FuzzyMatch[],
): EditorStep {
  const query = openFileQuery(state);
  if (query !== undefined) {
    const picked = pickerStep(state, command, query, matchesFor(query.query));
    if (picked !== undefined) return { state: picked };
  }
  const edit = (buffer: TextBuffer): EditorStep => ({ state: { ...state, buffer } });
  const { buffer } = state;
  switch (command.type) {
    case "insert":
      return edit(insertText(buffer, command.text));
    case "newline":
      return edit(insertText(buffer, "\n"));
    case "submit":
      return submitStep(state);
    case "backspace":
      return edit(deleteBackward(buffer));
    case "delete_forward":
      return edit(deleteForward(buffer));
    case "left":
      return edit(moveLeft(buffer));
    case "right":
      return edit(moveRight(buffer));
    case "line_start":
      return edit(moveToLineStart(buffer));
    case "line_end":
      return edit(moveToLineEnd(buffer));
    case "delete_word":
      return edit(deleteWordBackward(buffer));
    case "kill_line_start":
      return edit(deleteToLineStart(buffer));
    case "kill_line_end":
      return edit(deleteToLineEnd(buffer));
    case "up": {
      if (!isOnFirstLine(buffer)) return edit(moveUp(buffer));
      const earlier = previousInput(state.history, buffer.text);
      return earlier === undefined
        ? { state }
        : { state: { ...state, history: earlier.history, buffer: bufferOf(earlier.text) } };
    }
    case "down": {
      if (!isOnLastLine(buffer)) return edit(moveDown(buffer));
      const later = nextInput(state.history);
      return later === undefined
        ? { state }
        : { state: { ...state, history: later.history, buffer: bufferOf(later.text) } };
    }
    case "tab": {
      // `/com` + Tab: the one command it can be.
      const [only, ...others] = matchingCommands(buffer.text);
      return only !== undefined && others.length === 0 ? edit(bufferOf(`/${only.name} `)) : { state };
    }
    case "escape":
      return { state, effect: { type: "escape" } };
    case "interrupt":
      return buffer.text === ""
        ? { state, effect: { type: "interrupt" } }
        : { state: { ...state, buffer: emptyBuffer, pastes: [] } };
    case "end_of_input":
      return buffer.text === "" ? { state, effect: { type: "exit" } } : edit(deleteForward(buffer));
    case "toggle_thinking":
      return { state, effect: { type: "toggle_thinking" } };
    case "ignore":
      return { state };
  }
}

/**
 * Pasted text goes in at the cursor and is never sent by itself, even when it ends with a line
 * break; a long paste shows as `[pasted N lines]` and is sent whole.
 */
export function pasteStep(state: EditorState, text: string): EditorState {
  const collapsed = collapsedPaste(text, state.pastes);
  if (collapsed === undefined) return { ...state, buffer: insertText(state.buffer, text) };
  return {
    ...state,
    buffer: insertText(state.buffer, collapsed.label),
    pastes: [...state.pastes, collapsed],
  };
}

/** The input was taken: the box empties and the text joins the earlier inputs. */
export function afterSubmit(state: EditorState, text: string): EditorState {
  return {
    ...state,
    buffer: emptyBuffer,
    history: recordInput(state.history, text),
    dismissedAt: undefined,
    pastes: [],
  };
}

function pickerStep(
  state: EditorState,
  command: KeyCommand,
  query: FileRefQuery,
  matches: readonly FuzzyMatch[],
): EditorState | undefined {
  const selected = selectedMatch(state, query, matches.length);
  switch (command.type) {
    case "up":
      return { ...state, selected: Math.max(0, selected - 1), selectedFor: query.query };
    case "down":
      return {
        ...state,
        selected: Math.min(Math.max(0, matches.length - 1), selected + 1),
        selectedFor: query.query,
      };
    case "tab":
    case "submit": {
      const chosen = matches[selected];
      if (chosen === undefined) return command.type === "tab" ? state : undefined;
      return { ...state, buffer: completeFileRef(state.buffer, query, chosen.path), selected: 0 };
    }
    case "escape":
      return { ...state, dismissedAt: query.start };
    default:
      return undefined;
  }
}

function submitStep(state: EditorState): EditorStep {
  const { text, cursor } = state.buffer;
  // A backslash just before the cursor at the end continues on a new line, as in a shell.
  if (cursor === text.length && text.endsWith("\\"))
    return { state: { ...state, buffer: bufferOf(`${text.slice(0, -1)}\n`) } };
  if (text.trim() === "") return { state };
  // Spaces at the very end say nothing: the one the `@` picker adds after a path is not sent.
  return { state, effect: { type: "submit", text: expandPastes(text.replace(/[ \t]+$/, ""), state.pastes) } };
}
