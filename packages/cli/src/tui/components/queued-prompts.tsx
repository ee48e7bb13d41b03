import { Box, Text } from "ink";

/** Prompts sent while a turn runs: each goes when the turns before it have ended; Esc drops them. */
export function QueuedPrompts({ queued }: { queued: readonly string[] }) {
  if (queued.length === 0) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {queued.map((text, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the queue in order; the same text may be queued twice
        <Text key={i} dimColor wrap="truncate-end">
          {"› queued · "}
          {text.replace(/\s+/g, " ")}
        </Text>
      ))}
      <Text dimColor>{"  "}sent when the turn ends · esc to clear the queue</Text>
    </Box>
  );
}
