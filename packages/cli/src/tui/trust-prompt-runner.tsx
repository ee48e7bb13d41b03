import type { ProjectTrustError } from "@yoake/pod";
import { render } from "ink";
import { type TrustChoice, TrustPrompt } from "./components/trust-prompt.js";

/**
 * Shows `TrustPrompt` on its own screen, before the UI and its Pod exist, and resolves with the
 * answer once the prompt is gone. For tests, the streams can be given.
 */
export async function runTrustPrompt(
  error: ProjectTrustError,
  streams: { stdin?: NodeJS.ReadStream; stdout?: NodeJS.WriteStream } = {},
): Promise<TrustChoice> {
  let answered: (choice: TrustChoice) => void = () => {};
  const answer = new Promise<TrustChoice>((resolve) => {
    answered = resolve;
  });
  const instance = render(
    <TrustPrompt
      manifests={error.manifests}
      requests={error.requests}
      onAnswer={(choice) => answered(choice)}
    />,
    {
      exitOnCtrlC: false,
      ...(streams.stdin !== undefined && { stdin: streams.stdin }),
      ...(streams.stdout !== undefined && { stdout: streams.stdout }),
    },
  );
  const choice = await answer;
  instance.unmount();
  await instance.waitUntilExit();
  return choice;
}
