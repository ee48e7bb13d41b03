import { Box, useApp } from "ink";
import { useEffect, useMemo, useReducer, useState } from "react";
import { SessionController } from "../controller/session-controller.js";
import type { ProjectFiles } from "../files/project-files.js";
import type { PodLike } from "../pod-like.js";
import { uiReducer } from "../state/ui-reducer.js";
import { initialUiState } from "../state/ui-state.js";
import { InputBox } from "./input-box.js";
import { KeyRouter } from "./key-router.js";
import { MessageList } from "./message-list.js";
import { PermissionPrompt } from "./permission-prompt.js";
import { StatusBar } from "./status-bar.js";

export interface AppProps {
  pod: PodLike;
  /** The first line of the transcript (`yoake · <project>`, or the demo's "the model is scripted"). */
  title?: string;
  loadFiles(): Promise<ProjectFiles>;
  inputHistory?: readonly string[];
}

/** The whole terminal UI: the transcript, then the permission prompt or the input, then the status line. */
export function App({ pod, title, loadFiles, inputHistory }: AppProps) {
  const [state, dispatch] = useReducer(uiReducer, initialUiState);
  const { exit } = useApp();
  // Leaving takes one more render, without the input and status line: the screen keeps the transcript only.
  const [leaving, setLeaving] = useState(false);
  const controller = useMemo(() => new SessionController(pod, dispatch, () => setLeaving(true)), [pod]);
  useEffect(() => {
    if (leaving) exit();
  }, [leaving, exit]);

  useEffect(() => {
    const stop = controller.attach();
    if (title !== undefined) dispatch({ type: "notice", tone: "title", text: title });
    void controller.showHistory("Earlier in this session:");
    return stop;
  }, [controller, title]);

  const { permission } = state;
  return (
    <KeyRouter>
      <Box flexDirection="column">
        <MessageList committed={state.committed} live={state.live} showThinking={state.showThinking} />
        {!leaving && permission !== undefined && (
          <PermissionPrompt
            key={permission.id}
            request={permission}
            onDecision={(decision) => void controller.answer(permission.id, decision)}
            onCancel={() => controller.abandonApproval()}
          />
        )}
        <InputBox
          isActive={!leaving && permission === undefined}
          onSubmit={(text) => {
            if (!controller.accepts(text)) return false;
            void controller.submit(text);
            return true;
          }}
          onEscape={() => controller.cancel()}
          onInterrupt={() => {
            if (!controller.cancel()) controller.quit();
          }}
          onExit={() => controller.quit()}
          onToggleThinking={() => dispatch({ type: "toggle_thinking" })}
          loadFiles={loadFiles}
          {...(inputHistory !== undefined && { initialHistory: inputHistory })}
        />
        {!leaving && (
          <StatusBar
            activity={state.activity}
            usage={state.usage}
            {...(state.runStartedAt !== undefined && { runStartedAt: state.runStartedAt })}
            {...(pod.manifest?.model !== undefined && { model: pod.manifest.model })}
          />
        )}
      </Box>
    </KeyRouter>
  );
}
