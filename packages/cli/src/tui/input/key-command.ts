import type { Key } from "ink";
import { hasControlCharacter, splitKeys } from "./key-stream.js";

/** What a key press asks of the input box, before knowing what is on screen (picker, history). */
export type KeyCommand =
  | { type: "insert"; text: string }
  | { type: "newline" }
  | { type: "submit" }
  | { type: "backspace" }
  | { type: "delete_forward" }
  | { type: "left" }
  | { type: "right" }
  | { type: "up" }
  | { type: "down" }
  | { type: "line_start" }
  | { type: "line_end" }
  | { type: "delete_word" }
  | { type: "kill_line_start" }
  | { type: "kill_line_end" }
  | { type: "tab" }
  | { type: "escape" }
  /** Ctrl+C. */
  | { type: "interrupt" }
  /** Ctrl+D. */
  | { type: "end_of_input" }
  | { type: "toggle_thinking" }
  | { type: "ignore" };

const CTRL_COMMANDS: Readonly<Record<string, KeyCommand>> = {
  a: { type: "line_start" },
  e: { type: "line_end" },
  b: { type: "left" },
  f: { type: "right" },
  p: { type: "up" },
  n: { type: "down" },
  w: { type: "delete_word" },
  u: { type: "kill_line_start" },
  k: { type: "kill_line_end" },
  c: { type: "interrupt" },
  d: { type: "end_of_input" },
  t: { type: "toggle_thinking" },
};

/**
 * Reads one key as ink reports it. Enter submits; Shift+Enter (terminals with the kitty keyboard
 * protocol), Alt+Enter and Ctrl+J (a line feed, which every terminal sends) insert a newline.
 * Most terminals send Backspace as DEL, which ink calls `delete`: both erase backwards, and
 * Ctrl+D erases forwards when there is text. Text that still holds control characters (keys
 * that came in one read) is read key by key, so no raw control byte is ever inserted.
 */
export function keyCommands(input: string, key: Key): KeyCommand[] {
  const command = specialKey(input, key);
  if (command !== undefined) return [command];
  if (!hasControlCharacter(input)) return [{ type: "insert", text: input }];
  // Each part is plain text or one control key: the recursion ends at once.
  return splitKeys(input).flatMap((press) => keyCommands(press.input, press.key));
}

function specialKey(input: string, key: Key): KeyCommand | undefined {
  if (key.return) return key.shift || key.meta ? { type: "newline" } : { type: "submit" };
  if (input === "\n") return { type: "newline" };
  if (key.escape) return { type: "escape" };
  if (key.upArrow) return { type: "up" };
  if (key.downArrow) return { type: "down" };
  if (key.leftArrow) return { type: "left" };
  if (key.rightArrow) return { type: "right" };
  if (key.home) return { type: "line_start" };
  if (key.end) return { type: "line_end" };
  if (key.backspace || key.delete) return { type: "backspace" };
  if (key.tab) return key.shift ? { type: "ignore" } : { type: "tab" };
  if (key.ctrl) return CTRL_COMMANDS[input] ?? { type: "ignore" };
  if (key.meta || input === "") return { type: "ignore" };
  return undefined;
}
