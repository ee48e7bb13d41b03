import type { TrustRequest } from "@yoake/pod";
import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { screenText } from "../../screen-text.js";

/** What the user can answer; `quit` is Esc or Ctrl+C. */
export type TrustChoice = "trust" | "distrust" | "quit";

export interface TrustPromptProps {
  /** The untrusted manifest files. */
  manifests: readonly string[];
  /** Everything they ask for, shown one per line, exactly (commands, hosts, paths). */
  requests: readonly TrustRequest[];
  onAnswer(choice: TrustChoice): void;
}

const CHOICES = [
  { key: "t", choice: "trust", label: "Trust this manifest (remembered until it changes)" },
  { key: "d", choice: "distrust", label: "Don't trust: run with its safe parts only (remembered)" },
] as const;

/**
 * Asked once, before the Pod opens, when the project's manifest asks for more than the safe
 * defaults: each request on its own line, then Trust / Don't trust (t / d, or the arrows and
 * Enter). Esc or Ctrl+C leaves yoake without opening the project. What the manifest wrote is shown
 * as screen text (`screenText`): a control in a value (`ESC[8m` hiding the host after a base URL)
 * is on screen as a placeholder, so the user sees all that is asked.
 */
export function TrustPrompt({ manifests, requests, onAnswer }: TrustPromptProps) {
  const [selected, setSelected] = useState(0);
  // Keys of one chunk must see each other's effect, and an answer must go out once.
  const live = useRef({ selected: 0, answered: false });
  const answer = (choice: TrustChoice): void => {
    if (live.current.answered) return;
    live.current.answered = true;
    onAnswer(choice);
  };

  useInput((input, key) => {
    const state = live.current;
    if (state.answered) return;
    if (key.escape || (key.ctrl && input === "c")) return answer("quit");
    if (key.upArrow) state.selected = 0;
    else if (key.downArrow || key.tab) state.selected = 1;
    else if (key.return) return answer(CHOICES[state.selected]?.choice ?? "quit");
    else {
      const picked = CHOICES.find(
        (choice, i) => choice.key === input.toLowerCase() || String(i + 1) === input,
      );
      if (picked !== undefined) return answer(picked.choice);
    }
    setSelected(state.selected);
  });

  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text color="yellow" bold>
        Trust this project's manifest?
      </Text>
      <Text>{manifests.map(screenText).join(", ")} asks for more than the safe defaults. It would:</Text>
      <Box flexDirection="column" marginY={1}>
        {requests.map((request) => (
          <Text key={request.key}>
            {"• "}
            {screenText(request.description)}
            <Text dimColor> ({screenText(request.key)})</Text>
          </Text>
        ))}
      </Box>
      <Text dimColor>Only trust a manifest you have read and whose source you trust.</Text>
      {CHOICES.map((choice, i) => (
        <Text key={choice.key} {...(i === selected && { color: "cyan" })}>
          {i === selected ? "❯ " : "  "}
          {choice.key}) {choice.label}
        </Text>
      ))}
      <Text dimColor>Esc: quit without opening the project</Text>
    </Box>
  );
}
