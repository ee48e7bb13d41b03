import type { PermissionDecision, PermissionRequest } from "@yoake/pod";
import { Box, type Key, Text } from "ink";
import { useRef, useState } from "react";
import { DiffView } from "./diff-view.js";
import { argumentValue } from "./format.js";
import { useKeys } from "./key-router.js";

const DIFF_LINES = 24;
const ARGUMENT_CHARS = 100;
/** Arguments the diff already shows in full. */
const SHOWN_BY_DIFF = new Set(["old_string", "new_string", "content"]);

export interface PermissionPromptProps {
  request: PermissionRequest;
  onDecision(decision: PermissionDecision): void;
  /** Esc: neither allow nor deny; the turn is cancelled. */
  onCancel(): void;
}

const CHOICES = [
  { key: "y", label: "Allow once" },
  { key: "a", label: "Allow for this session" },
  { key: "n", label: "Deny, with a reason" },
] as const;

/**
 * A tool call waiting for the user: the tool, its arguments and the diff it would make (or why
 * it would fail). y / a / n, or the arrows and Enter; a denial asks for a reason, which the model
 * reads. Esc cancels the turn instead.
 */
export function PermissionPrompt({ request, onDecision, onCancel }: PermissionPromptProps) {
  const [selected, setSelected] = useState(0);
  const [reason, setReason] = useState<string | undefined>(undefined);
  // Keys of one chunk must see each other's effect, and an answer must go out once.
  const live = useRef({ selected: 0, reason: undefined as string | undefined, answered: false });

  const decide = (decision: PermissionDecision): void => {
    if (live.current.answered) return;
    live.current.answered = true;
    onDecision(decision);
  };
  const choose = (index: number): void => {
    if (index === 0) decide("allow_once");
    else if (index === 1) decide("allow_session");
    else {
      live.current.reason = "";
      setReason("");
    }
  };

  useKeys((input: string, key: Key) => {
    const state = live.current;
    if (state.answered) return;
    if (state.reason !== undefined) {
      if (key.escape) state.reason = undefined;
      else if (key.return) return decide({ deny: state.reason.trim() || "the user declined this call" });
      else if (key.backspace || key.delete) state.reason = state.reason.slice(0, -1);
      else if (!key.ctrl && !key.meta && input !== "") state.reason += input.replace(/[\r\n]+/g, " ");
      setReason(state.reason);
      return;
    }
    if (key.escape) return onCancel();
    if (key.upArrow) state.selected = Math.max(0, state.selected - 1);
    else if (key.downArrow || key.tab) state.selected = Math.min(CHOICES.length - 1, state.selected + 1);
    else if (key.return) return choose(state.selected);
    else {
      const index = CHOICES.findIndex(
        (choice, i) => choice.key === input.toLowerCase() || String(i + 1) === input,
      );
      if (index !== -1) return choose(index);
    }
    setSelected(state.selected);
  }, true);

  const preview = request.preview;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} marginTop={1}>
      <Text>
        <Text color="yellow" bold>
          {request.tool}
        </Text>{" "}
        wants to run{preview?.path !== undefined ? ` on ${preview.path}` : ""}
      </Text>
      <ArgumentLines args={request.arguments} hideDiffed={preview?.ok === true} />
      {request.command !== undefined && (
        <Box marginTop={1}>
          <Text color={request.command.sandboxed ? "yellow" : "red"} bold={!request.command.sandboxed}>
            {request.command.reason}
          </Text>
        </Box>
      )}
      {request.model !== undefined && (
        <Box marginTop={1}>
          <Text color="red" bold={request.model.local}>
            {request.model.reason}
          </Text>
        </Box>
      )}
      {preview?.ok === true && (
        <Box flexDirection="column" marginTop={1}>
          {preview.newFile && <Text color="green">new file</Text>}
          <DiffView diff={preview.diff} maxLines={DIFF_LINES} />
          {preview.truncated && <Text dimColor>(the diff is cut; the call changes more)</Text>}
        </Box>
      )}
      {preview?.ok === false && (
        <Box marginTop={1}>
          <Text color="red">This call would fail: {preview.message}</Text>
        </Box>
      )}
      <Box flexDirection="column" marginTop={1}>
        {CHOICES.map((choice, i) => (
          <Text key={choice.key} color={i === selected ? "cyan" : undefined}>
            {i === selected ? "› " : "  "}
            {i + 1}. {choice.label} ({choice.key})
            {i === 1 && request.command !== undefined && (
              <Text dimColor> {sessionAllowance(request.command)}</Text>
            )}
          </Text>
        ))}
      </Box>
      {reason !== undefined ? (
        <Box marginTop={1}>
          <Text>
            Reason for the model: {reason}
            <Text inverse> </Text>
          </Text>
          <Text dimColor> (Enter to deny · Esc to go back)</Text>
        </Box>
      ) : (
        <Text dimColor>↑↓ and Enter, or y / a / n · Esc cancels the turn</Text>
      )}
    </Box>
  );
}

/** What "allow for this session" would allow of a command: a prefix, or this command alone. */
function sessionAllowance(ask: NonNullable<PermissionRequest["command"]>): string {
  const { kind, text } = ask.sessionAllows;
  return kind === "prefix" ? `— commands starting with "${text}"` : `— exactly "${text}"`;
}

function ArgumentLines({ args, hideDiffed }: { args: unknown; hideDiffed: boolean }) {
  if (typeof args !== "object" || args === null)
    return <Text dimColor>{argumentValue(args, ARGUMENT_CHARS)}</Text>;
  const entries = Object.entries(args as Record<string, unknown>).filter(
    ([key]) => !(hideDiffed && SHOWN_BY_DIFF.has(key)),
  );
  return (
    <Box flexDirection="column">
      {entries.map(([key, value]) => (
        <Text key={key} dimColor wrap="truncate-end">
          {key}: {argumentValue(value, ARGUMENT_CHARS)}
        </Text>
      ))}
    </Box>
  );
}
