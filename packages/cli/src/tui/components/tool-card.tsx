import { Box, Text } from "ink";
import { toolCallLabel } from "../../tool-call-label.js";
import type { ToolCardResult, ToolCardState, ToolPhase } from "../state/ui-state.js";
import { DiffView } from "./diff-view.js";
import { argumentValue, firstLine, formatDuration, headLines } from "./format.js";
import { SubagentView } from "./subagent-view.js";
import { useNow } from "./use-now.js";

/** Arguments shown on a card: the rest are counted. */
const MAX_ARGUMENTS = 4;
const MAX_ARGUMENT_CHARS = 90;
/** Arguments a diff in the result shows better than their text. */
const SHOWN_BY_DIFF = new Set(["old_string", "new_string", "content"]);
/** Streaming JSON is shown by its end: the part that is changing. */
const STREAMING_TAIL_CHARS = 160;
/** A seed-000 summary is at most 400 bytes: shown whole, cut only if a long one gets here. */
const STORED_SUMMARY_LINES = 12;
const DIFF_LINES = 14;
/** The last lines of a running command's output shown on its card. */
const PROGRESS_LINES = 8;
/** The last lines of a command's output its card keeps once the command has ended. */
const FINISHED_LINES = 4;
const ERROR_LINES = 4;

export interface ToolCardProps {
  card: ToolCardState;
}

/**
 * One tool call: a header with its name and telling argument and where it stands; its arguments
 * as they stream, then parsed; a `task` call's sub-agent and its folded tool calls; then its
 * result: a diff for edits, a stored output's summary, an error's first lines, or the one-line
 * summary.
 */
export function ToolCard({ card }: ToolCardProps) {
  const now = useNow(card.phase === "running", 100);
  const label =
    card.arguments === undefined ? card.name : toolCallLabel({ name: card.name, arguments: card.arguments });
  return (
    <Box flexDirection="column" marginTop={1}>
      <Box>
        <Text color={PHASE_COLOR[card.phase]}>{PHASE_ICON[card.phase]} </Text>
        <Text bold>{label}</Text>
        <Text dimColor> {phaseText(card, now)}</Text>
      </Box>
      <Box flexDirection="column" paddingLeft={2}>
        <ArgumentsView card={card} />
        {card.subagent !== undefined && <SubagentView subagent={card.subagent} />}
        {card.progress !== undefined && (
          // A finished command keeps its last lines: what it printed is not lost when it ends.
          <ProgressView
            text={card.progress}
            lines={card.phase === "running" ? PROGRESS_LINES : FINISHED_LINES}
          />
        )}
        {card.result !== undefined && <ResultView result={card.result} />}
        {card.phase === "denied" && card.deniedReason !== undefined && card.deniedReason !== "" && (
          <Text color="red">⎿ denied: {firstLine(card.deniedReason, 200)}</Text>
        )}
      </Box>
    </Box>
  );
}

const PHASE_ICON: Record<ToolPhase, string> = {
  streaming: "◌",
  ready: "○",
  awaiting_approval: "?",
  running: "◐",
  done: "●",
  denied: "✗",
  not_run: "○",
};

const PHASE_COLOR: Record<ToolPhase, string | undefined> = {
  streaming: "gray",
  ready: "gray",
  awaiting_approval: "yellow",
  running: "cyan",
  done: "green",
  denied: "red",
  not_run: "gray",
};

function phaseText(card: ToolCardState, now: number): string {
  switch (card.phase) {
    case "streaming":
      return "writing arguments…";
    case "ready":
      return "queued";
    case "awaiting_approval":
      return "awaiting your approval";
    case "running":
      return `running ${formatDuration(Math.max(0, now - (card.startedAt ?? now)))}`;
    case "done":
      return `${card.result?.isError ? "failed" : "done"}${card.durationMs === undefined ? "" : ` in ${formatDuration(card.durationMs)}`}`;
    case "denied":
      return "denied";
    case "not_run":
      return card.startedAt === undefined ? "not run" : "cancelled";
  }
}

function ArgumentsView({ card }: ToolCardProps) {
  if (card.arguments === undefined || card.phase === "streaming") {
    if (card.argumentsText === "") return null;
    const tail = card.argumentsText.slice(-STREAMING_TAIL_CHARS).replace(/\s+/g, " ");
    const cut = card.argumentsText.length > STREAMING_TAIL_CHARS ? "…" : "";
    return (
      <Text dimColor wrap="truncate-start">
        {cut}
        {tail}
      </Text>
    );
  }
  if (typeof card.arguments !== "object" || card.arguments === null) return null;
  const diffShown = card.result !== undefined && diffStartOf(card.result.content ?? "") !== undefined;
  const entries = Object.entries(card.arguments as Record<string, unknown>).filter(
    ([key]) => !(diffShown && SHOWN_BY_DIFF.has(key)),
  );
  const shown = entries.slice(0, MAX_ARGUMENTS);
  return (
    <Box flexDirection="column">
      {shown.map(([key, value]) => (
        <Text key={key} dimColor wrap="truncate-end">
          {key}: {argumentValue(value, MAX_ARGUMENT_CHARS)}
        </Text>
      ))}
      {entries.length > shown.length && (
        <Text dimColor>… {entries.length - shown.length} more arguments</Text>
      )}
    </Box>
  );
}

/** The latest `lines` lines a tool wrote (a command's output), as they arrive, and once it has ended. */
function ProgressView({ text, lines: count }: { text: string; lines: number }) {
  const lines = text.replace(/\n$/, "").split("\n").slice(-count);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the tail of a stream; position is identity
        <Text key={i} dimColor wrap="truncate-end">
          {"│ "}
          {line}
        </Text>
      ))}
    </Box>
  );
}

function ResultView({ result }: { result: ToolCardResult }) {
  const content = result.content ?? "";
  if (result.isError) {
    const { lines, more } = headLines(content === "" ? result.summary : content, ERROR_LINES);
    return (
      <Box flexDirection="column">
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed excerpt; lines never move
          <Text key={i} color="red">
            {i === 0 ? "⎿ " : "  "}
            {line}
          </Text>
        ))}
        {more > 0 && <Text dimColor> … {more} more lines</Text>}
      </Box>
    );
  }
  if (content.startsWith("[blob:")) {
    const { lines, more } = headLines(content, STORED_SUMMARY_LINES + 1);
    return (
      <Box flexDirection="column">
        <Text>⎿ stored: {lines[0]}</Text>
        {lines.slice(1).map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed excerpt; lines never move
          <Text key={i} dimColor>
            {"  "}
            {line}
          </Text>
        ))}
        {more > 0 && <Text dimColor> … {more} more lines</Text>}
      </Box>
    );
  }
  const diffStart = diffStartOf(content);
  if (diffStart !== undefined) {
    return (
      <Box flexDirection="column">
        <Text dimColor>⎿ {firstLine(diffStart === 0 ? result.summary : content, 120)}</Text>
        <Box paddingLeft={2}>
          <DiffView diff={content.slice(diffStart)} maxLines={DIFF_LINES} />
        </Box>
      </Box>
    );
  }
  return <Text dimColor>⎿ {firstLine(result.summary, 160)}</Text>;
}

/** Where the unified diff of an edit or write result starts (after its one-line report), if it has one. */
function diffStartOf(content: string): number | undefined {
  if (content.startsWith("--- ")) return 0;
  const at = content.indexOf("\n--- ");
  return at !== -1 && content.startsWith("+++ ", content.indexOf("\n", at + 1) + 1) ? at + 1 : undefined;
}
