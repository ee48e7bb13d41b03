import { Box, useApp, useStdout } from "ink";
import { useEffect, useMemo, useReducer, useState } from "react";
import { mcpFailure } from "../commands/mcp-text.js";
import { SessionController } from "../controller/session-controller.js";
import type { ProjectFiles } from "../files/project-files.js";
import type { PodLike } from "../pod-like.js";
import { restoredSessionActions } from "../state/restored-session.js";
import type { RestoredSubagents } from "../state/restored-subagents.js";
import { uiReducer } from "../state/ui-reducer.js";
import { activityOf, initialUiState, type UiState } from "../state/ui-state.js";
import { InputBox, maxInputRows } from "./input-box.js";
import { KeyRouter } from "./key-router.js";
import { MessageList } from "./message-list.js";
import { PermissionPrompt } from "./permission-prompt.js";
import { PlanPanel } from "./plan-panel.js";
import { QueuedPrompts } from "./queued-prompts.js";
import { SessionPicker } from "./session-picker.js";
import { StatusBar } from "./status-bar.js";
import { useTerminalSize } from "./use-terminal-size.js";

export interface AppProps {
  pod: PodLike;
  /** The first line of the transcript (`yoake · <project>`, or the demo's "the model is scripted"). */
  title?: string;
  loadFiles(): Promise<ProjectFiles>;
  inputHistory?: readonly string[];
  /** The sub-agents of the conversation the Pod holds, read back from their logs (`restoredSubagents`). */
  restoredSubagents?: RestoredSubagents;
}

/** The whole terminal UI: the transcript, then the permission prompt or the input, then the status line. */
export function App({ pod, title, loadFiles, inputHistory, restoredSubagents }: AppProps) {
  // The title, and a conversation the Pod already holds, are there from the first frame.
  const [state, dispatch] = useReducer(uiReducer, pod, (initial) =>
    firstState(initial, title, restoredSubagents),
  );
  const { exit } = useApp();
  const { stdout } = useStdout();
  // The terminal reflows what is on screen when it is resized, and ink can then no longer erase
  // its old frame (a stale input box stays): clear the screen and print the transcript again.
  const size = useTerminalSize(() => {
    if (stdout.isTTY) stdout.write(CLEAR_SCREEN_AND_SCROLLBACK);
  });
  // Leaving takes one more render, without the input and status line: the screen keeps the transcript only.
  const [leaving, setLeaving] = useState(false);
  const controller = useMemo(() => new SessionController(pod, dispatch, () => setLeaving(true)), [pod]);
  useEffect(() => {
    if (leaving) exit();
  }, [leaving, exit]);

  useEffect(() => {
    const stop = controller.attach();
    // A Pod in another process is asked for its history; an in-process one gave it to the first state.
    if (pod.fetchHistory !== undefined) void controller.showHistory(EARLIER);
    return stop;
  }, [controller, pod]);

  const { permission } = state;
  return (
    <KeyRouter>
      <Box flexDirection="column">
        <MessageList
          committed={state.committed}
          live={state.live}
          showThinking={state.showThinking}
          printing={size.resizes}
          liveRows={Math.max(3, size.rows - maxInputRows(size.rows) - LIVE_ROWS_RESERVED)}
          columns={size.columns}
        />
        {!leaving && <QueuedPrompts queued={state.queued} />}
        {!leaving && permission !== undefined && (
          <PermissionPrompt
            key={permission.id}
            request={permission}
            onDecision={(decision) => void controller.answer(permission.id, decision)}
            onCancel={() => controller.abandonApproval()}
          />
        )}
        {!leaving && permission === undefined && state.sessionPicker !== undefined && (
          <SessionPicker
            sessions={state.sessionPicker}
            {...(pod.sessionId !== undefined && { current: pod.sessionId })}
            onPick={(id) => void controller.pickSession(id)}
            onCancel={() => void controller.pickSession(undefined)}
          />
        )}
        {/* A new session (/resume, /clear) has its own plan, or none: the panel starts over from it. */}
        {!leaving && <PlanPanel key={pod.sessionId} pod={pod} />}
        <InputBox
          isActive={!leaving && permission === undefined && state.sessionPicker === undefined}
          onSubmit={(text) => {
            void controller.submit(text);
            return true;
          }}
          onEscape={() => controller.escape()}
          onInterrupt={() => controller.interrupt()}
          onExit={() => controller.quit()}
          onToggleThinking={() => dispatch({ type: "toggle_thinking" })}
          loadFiles={loadFiles}
          {...(inputHistory !== undefined && { initialHistory: inputHistory })}
        />
        {!leaving && (
          <StatusBar
            activity={activityOf(state)}
            columns={size.columns}
            usage={state.usage}
            {...(state.retry !== undefined && { retry: state.retry })}
            {...(state.providerWaitSince !== undefined && { providerWaitSince: state.providerWaitSince })}
            {...(state.runStartedAt !== undefined && { runStartedAt: state.runStartedAt })}
            {...(pod.manifest?.model !== undefined && { model: pod.manifest.model })}
            {...(pod.manifest?.generation?.effort !== undefined && {
              effort: pod.manifest.generation.effort,
            })}
          />
        )}
      </Box>
    </KeyRouter>
  );
}

const EARLIER = "Earlier in this session:";
const CLEAR_SCREEN_AND_SCROLLBACK = "\x1b[2J\x1b[3J\x1b[H";
/** Rows of the live area besides streaming text and the input: margins, status line, a tool card. */
const LIVE_ROWS_RESERVED = 8;

function firstState(pod: PodLike, title: string | undefined, subagents?: RestoredSubagents): UiState {
  let state = initialUiState;
  if (title !== undefined) state = uiReducer(state, { type: "notice", tone: "title", text: title });
  // Servers that failed before the UI listened: their alerts went to nobody.
  for (const server of pod.mcpServers?.() ?? [])
    if (server.state === "failed")
      state = uiReducer(state, {
        type: "notice",
        tone: "warn",
        text: `${mcpFailure(server.name, server.error)}. /mcp lists the servers.`,
      });
  const history = pod.fetchHistory === undefined ? pod.history : undefined;
  if (history !== undefined && history.length > 0)
    state = uiReducer(state, {
      type: "history_loaded",
      items: history,
      title: EARLIER,
      ...(subagents !== undefined && { subagents }),
    });
  if (pod.restored !== undefined)
    for (const action of restoredSessionActions(pod.restored, pod.manifest?.model.prices))
      state = uiReducer(state, action);
  for (const message of pod.restored?.warnings ?? [])
    state = uiReducer(state, {
      type: "pod_event",
      event: { type: "alert", level: "warn", message, source: "session" },
      at: Date.now(),
    });
  // A served Pod attached to mid-run: busy from the first frame (the controller says so too once attached).
  if (pod.runInProgress === true) state = uiReducer(state, { type: "busy", busy: true, at: Date.now() });
  if (pod.pendingPermission !== undefined)
    state = uiReducer(state, {
      type: "pod_event",
      event: { type: "permission_request", ...pod.pendingPermission },
      at: Date.now(),
    });
  return state;
}
