import { Box, type Key, Text } from "ink";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { screenText } from "../../screen-text.js";
import { matchingCommands } from "../commands/slash-commands.js";
import { type FileCandidate, type FuzzyMatch, fileCandidates, rankPaths } from "../files/fuzzy-match.js";
import type { ProjectFiles } from "../files/project-files.js";
import {
  afterSubmit,
  type EditorEffect,
  type EditorState,
  editorStateOf,
  editorStep,
  interruptStep,
  openFileQuery,
  pasteStep,
  selectedMatch,
} from "../input/editor.js";
import { keyCommands } from "../input/key-command.js";
import type { TextBuffer } from "../input/text-buffer.js";
import { visibleRows } from "../input/visible-lines.js";
import { FilePicker } from "./file-picker.js";
import { useKeys } from "./key-router.js";
import { useTerminalSize } from "./use-terminal-size.js";

/** Matches the picker shows at once. */
const PICKER_SIZE = 8;
/** A file list older than this is read again when the picker opens (files come and go). */
const FILE_LIST_MAX_AGE_MS = 10_000;

export interface InputBoxProps {
  /** Keys go elsewhere while false (the permission prompt has them), and the box is not drawn; what was typed is kept. */
  isActive: boolean;
  /** Returns false when the input was not taken: it stays in the box. */
  onSubmit(text: string): boolean;
  /** Esc with no picker open. */
  onEscape(): void;
  /**
   * Ctrl+C on an empty input: cancel what runs, and say whether there was anything. When there
   * was not, the box says "press Ctrl+C again to exit", and a second Ctrl+C calls `onExit`.
   */
  onInterrupt(): boolean;
  /** Ctrl+D on an empty input. */
  onExit(): void;
  onToggleThinking(): void;
  /** The project's files, for the `@` picker; called when the picker opens. */
  loadFiles(): Promise<ProjectFiles>;
  /** Earlier inputs for Up, oldest first. */
  initialHistory?: readonly string[];
}

interface FileListState {
  files?: ProjectFiles;
  /** `files` prepared for ranking, once per list. */
  candidates: readonly FileCandidate[];
  loadedAt: number;
  loading: boolean;
}

/**
 * The prompt: multi-line editing, earlier inputs on Up / Down, and the `@` file picker (the
 * editing itself is `editorStep`, pure). The state lives in a ref, not in React state: several
 * keys can arrive in one chunk (typed fast, pasted, sent by tmux) and each must see the edit of
 * the one before, not the last render's copy. Pasted text is inserted, never sent by itself.
 */
export function InputBox(props: InputBoxProps) {
  const editor = useRef<EditorState>(editorStateOf(props.initialHistory));
  const fileList = useRef<FileListState>({ candidates: [], loadedAt: 0, loading: false });
  const ranked = useRef<
    { query: string; files: ProjectFiles | undefined; matches: FuzzyMatch[] } | undefined
  >(undefined);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const { rows, columns } = useTerminalSize();
  const propsRef = useRef(props);
  propsRef.current = props;

  /** Ranking every file is the costly part of a key press: done once per query and file list. */
  const matchesFor = useCallback((query: string): FuzzyMatch[] => {
    const files = fileList.current.files;
    const cached = ranked.current;
    if (cached !== undefined && cached.query === query && cached.files === files) return cached.matches;
    const matches = rankPaths(query, fileList.current.candidates, PICKER_SIZE);
    ranked.current = { query, files, matches };
    return matches;
  }, []);

  const ensureFiles = useCallback((): void => {
    const list = fileList.current;
    if (list.loading || Date.now() - list.loadedAt < FILE_LIST_MAX_AGE_MS) return;
    list.loading = true;
    propsRef.current
      .loadFiles()
      .then((files) => {
        fileList.current = {
          files,
          candidates: fileCandidates(files.paths),
          loadedAt: Date.now(),
          loading: false,
        };
      })
      .catch(() => {
        fileList.current = { ...fileList.current, loadedAt: Date.now(), loading: false };
      })
      .finally(rerender);
  }, []);

  const perform = (effect: EditorEffect): void => {
    const handlers = propsRef.current;
    switch (effect.type) {
      case "submit":
        if (handlers.onSubmit(effect.text)) editor.current = afterSubmit(editor.current, effect.text);
        break;
      case "escape":
        handlers.onEscape();
        break;
      case "interrupt": {
        const step = interruptStep(editor.current, handlers.onInterrupt());
        editor.current = step.state;
        if (step.effect !== undefined) perform(step.effect);
        break;
      }
      case "exit":
        handlers.onExit();
        break;
      case "toggle_thinking":
        handlers.onToggleThinking();
        break;
    }
  };

  useKeys(
    (input: string, key: Key) => {
      for (const command of keyCommands(input, key)) {
        const step = editorStep(editor.current, command, matchesFor);
        editor.current = step.state;
        if (step.effect !== undefined) perform(step.effect);
      }
      rerender();
    },
    props.isActive,
    (text) => {
      editor.current = pasteStep(editor.current, text);
      rerender();
    },
  );

  const state = editor.current;
  const query = openFileQuery(state);
  const pickerOpen = query !== undefined;
  useEffect(() => {
    if (pickerOpen) ensureFiles();
  }, [pickerOpen, ensureFiles]);

  if (!props.isActive) return null;
  const matches = query === undefined ? [] : matchesFor(query.query);
  const commands = matchingCommands(state.buffer.text);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Box borderStyle="round" borderColor="gray" paddingX={1} flexDirection="column">
        <BufferLines buffer={state.buffer} maxRows={maxInputRows(rows)} width={Math.max(1, columns - 6)} />
      </Box>
      {query !== undefined && (
        <FilePicker
          matches={matches}
          selected={selectedMatch(state, query, matches.length)}
          loading={fileList.current.files === undefined}
          truncated={fileList.current.files?.truncated === true}
        />
      )}
      {state.exitArmed === true && <Text color="yellow">{"  "}Press Ctrl+C again to exit</Text>}
      {query === undefined &&
        commands.map((command) => (
          <Text key={command.name} dimColor>
            {"  "}
            {screenText(command.usage.padEnd(26))} {screenText(command.description)}
          </Text>
        ))}
    </Box>
  );
}

/** The box takes at most half the terminal, so the transcript and the status line stay in view. */
export function maxInputRows(terminalRows: number): number {
  return Math.max(3, Math.floor(terminalRows / 2));
}

const PLACEHOLDER = "Ask anything · @ attaches a file · /help";

/**
 * The text with a block cursor; the first line has the prompt sign. At most `maxRows` rows, counted
 * as the terminal wraps them: a longer text scrolls to keep the cursor's row in view, and says how
 * much is out of view.
 */
function BufferLines({ buffer, maxRows, width }: { buffer: TextBuffer; maxRows: number; width: number }) {
  if (buffer.text === "") {
    return (
      <Text>
        <Text color="cyan">{"› "}</Text>
        <Text inverse> </Text>
        <Text dimColor>{PLACEHOLDER}</Text>
      </Text>
    );
  }
  const shown = visibleRows(buffer.text, buffer.cursor, maxRows, width);
  const hidden = shown.hiddenAbove + shown.hiddenBelow > 0;
  return (
    <>
      {shown.rows.map((row) => {
        const codePoint = row.cursor === undefined ? undefined : row.text.codePointAt(row.cursor);
        const underCursor = codePoint === undefined ? " " : String.fromCodePoint(codePoint);
        return (
          <Text key={row.index}>
            <Text color="cyan">{row.line === 0 && row.startsLine ? "› " : "  "}</Text>
            {row.cursor === undefined ? (
              row.text
            ) : (
              <>
                {row.text.slice(0, row.cursor)}
                <Text inverse>{underCursor}</Text>
                {row.text.slice(row.cursor + underCursor.length)}
              </>
            )}
          </Text>
        );
      })}
      {hidden && (
        <Text dimColor>
          {"  "}
          {[
            shown.hiddenAbove > 0 ? `↑ ${shown.hiddenAbove} more line(s)` : "",
            shown.hiddenBelow > 0 ? `↓ ${shown.hiddenBelow} more line(s)` : "",
          ]
            .filter((part) => part !== "")
            .join(" · ")}
        </Text>
      )}
    </>
  );
}
