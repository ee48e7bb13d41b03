import type { Item } from "@yoake/llm-worker";
import { errorMessage } from "@yoake/llm-worker/internal";
import { EFFORT_LEVELS, isEffortLevel, type PermissionDecision, parseSegments } from "@yoake/pod";
import { mcpServersText, sessionsText } from "../commands/command-text.js";
import {
  customSlashCommand,
  helpText,
  type ParsedCommand,
  parseSlashCommand,
} from "../commands/slash-commands.js";
import { mayNameImagePath, takePastedImages } from "../input/pasted-images.js";
import type { PodLike, RunOutcome } from "../pod-like.js";
import { latestToolResults } from "../state/history-entries.js";
import { restoredSessionActions } from "../state/restored-session.js";
import { subagentsOf } from "../state/restored-subagents.js";
import type { UiAction } from "../state/ui-action.js";

/**
 * What the UI does with the Pod, apart from drawing: submits input, cancels and answers
 * approvals, runs slash commands, and turns the Pod's events into reducer actions. No React in
 * here, so it is tested against a fake Pod.
 */
export class SessionController {
  /** Cancels this UI's run, answer or compaction going now; undefined when none is. */
  private running: AbortController | undefined;
  /**
   * A run this UI did not start goes in the Pod: another client's of a served Pod, or one that
   * was going when this UI attached. It ends with its `run_end` (a served Pod sends that once it
   * is free for the next run).
   */
  private servedRun = false;
  /** Resolves when the run or answer going now has returned. */
  private current: Promise<void> | undefined;
  /** Prompts sent while a turn ran, oldest first: each runs when the turn before it has ended. */
  private queued: string[] = [];
  /** This UI's `/compact` is going: its own notice reports it, not the Pod's alert as well. */
  private compacting = false;
  /** The served Pod is gone (`yoake serve` stopped): what to tell the user, on every prompt from now. */
  private gone: string | undefined;

  constructor(
    private readonly pod: PodLike,
    private readonly dispatch: (action: UiAction) => void,
    private readonly exit: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The Pod is busy: prompts queue and commands that change the session wait. The status bar
   * shows this very value, dispatched as `busy` by `changeBusy`, the one place it changes.
   */
  get isRunning(): boolean {
    return this.running !== undefined || this.servedRun;
  }

  /** Feeds the Pod's events to the reducer; returns the function that stops it. */
  attach(): () => void {
    // A served Pod attached to mid-run: its run is this UI's to show and to wait for.
    this.changeBusy(() => {
      this.servedRun = this.running === undefined && this.pod.runInProgress === true;
    });
    const stopGone = this.pod.onGone?.((why) => this.podGone(why));
    const stopListening = this.pod.listen((event) => {
      // The Pod's own word on the compaction `/compact` asked for says what the UI's notice says.
      if (
        this.compacting &&
        event.type === "alert" &&
        event.source === "compaction" &&
        event.level === "info"
      )
        return;
      // Calls a hook skipped or the user denied get no `tool_end`: their results are in history.
      if (event.type === "run_end") {
        if (this.pod.history !== undefined)
          this.dispatch({ type: "tool_results", results: latestToolResults(this.pod.history) });
      }
      const prices = this.pod.manifest?.model.prices;
      this.dispatch({ type: "pod_event", event, at: this.now(), ...(prices !== undefined && { prices }) });
      if (event.type === "run_start" && this.running === undefined)
        this.changeBusy(() => {
          this.servedRun = true;
        });
      if (event.type === "run_end" && this.servedRun) {
        this.changeBusy(() => {
          this.servedRun = false;
        });
        if (event.result.status !== "paused") void this.sendQueued();
      }
    });
    return () => {
      stopGone?.();
      stopListening();
    };
  }

  /** `yoake serve` stopped: the status bar says so, and so does every prompt from now on. */
  private podGone(why: string): void {
    this.gone = `${why} Leave with /quit (or Ctrl+D) first.`;
    this.clearQueue();
    this.changeBusy(() => {
      this.servedRun = false;
    });
    this.dispatch({ type: "pod_gone", text: this.gone });
  }

  /** Shows the conversation the Pod already holds (a resumed session), if any. */
  async showHistory(title: string): Promise<void> {
    const items = await this.history();
    if (items.length > 0) this.dispatch({ type: "history_loaded", items, title });
  }

  /**
   * Handles one submitted input: a slash command at once, a prompt for the Pod now, or (while a
   * turn runs) once the turns before it have ended.
   */
  async submit(text: string): Promise<void> {
    const command = parseSlashCommand(text);
    if (command !== undefined) {
      this.notice("muted", `› ${text.trim()}`);
      return this.command(command);
    }
    return this.prompt(text);
  }

  /** A prompt for the Pod now, or (while a turn runs) once the turns before it have ended. */
  private async prompt(text: string): Promise<void> {
    if (text.trim() === "") return;
    if (this.gone !== undefined) return this.notice("error", this.gone);
    // Also while a cancelled run is still returning (its log being written): it goes right after.
    if (this.isRunning || this.queued.length > 0) {
      this.queued.push(text);
      this.dispatch({ type: "queue_changed", queued: [...this.queued] });
      return;
    }
    await this.runPrompt(text);
  }

  private async runPrompt(text: string): Promise<void> {
    this.dispatch({ type: "submitted", text, at: this.now() });
    // The input as typed, `@` references made segments the way the Pod reads a string.
    if (!mayNameImagePath(text)) return this.drive((signal) => this.pod.run(parseSegments(text), { signal }));
    // Paths of image files (a screenshot dropped on the terminal) become attachments.
    const pasted = await takePastedImages(text, this.pod.manifest?.projectRoot ?? process.cwd());
    for (const refused of pasted.refused) this.notice("warn", refused);
    const images = pasted.images;
    await this.drive((signal) =>
      this.pod.run(parseSegments(pasted.text), images.length > 0 ? { signal, images } : { signal }),
    );
  }

  /** Esc: forgets the queued prompts if there are any, else cancels the running turn. */
  escape(): void {
    if (this.clearQueue()) this.notice("muted", "Queued messages cleared.");
    else this.cancel();
  }

  /**
   * Ctrl+C on an empty input: cancels the running turn and forgets the queued prompts. False when
   * nothing was running (the input box then asks for a second Ctrl+C to leave).
   */
  interrupt(): boolean {
    this.clearQueue();
    return this.cancel();
  }

  /**
   * Cancels the running turn through its signal, the one path: an in-process Pod aborts its
   * Worker with it, a served Pod's client sends the protocol's `cancel`. A run another client of
   * a served Pod started has no signal here: the Pod cancels it (`cancelServedRun`). The Pod keeps
   * a consistent history, so the session goes on.
   */
  cancel(): boolean {
    const running = this.running;
    // Nothing of this UI's runs: a served Pod may be running another client's run.
    if (running === undefined) return this.pod.cancelServedRun?.() ?? false;
    running.abort(new Error("cancelled by the user"));
    return true;
  }

  /** Answers the pending permission request; the run goes on (or skips the call) from there. */
  async answer(requestId: string, decision: PermissionDecision): Promise<void> {
    // The request arrives before the paused run has returned: the answer waits for it.
    if (this.current !== undefined) await this.current;
    if (this.running !== undefined) return;
    await this.drive((signal) => this.pod.respond(requestId, decision, { signal }));
  }

  /** Esc at the permission prompt: the call is not run; the next prompt replaces the paused run. */
  abandonApproval(): void {
    this.dispatch({ type: "approval_abandoned" });
  }

  /**
   * Leaves: a running turn is cancelled first, unless the Pod is served and goes on without this
   * UI (leaving is not cancelling: only Esc or Ctrl+C on the run is).
   */
  quit(): void {
    if (this.pod.runsOnWhenLeft !== true) this.cancel();
    this.exit();
  }

  /**
   * Runs or continues a turn: the reducer hears how it returned, or that it threw. Once it has
   * ended (not paused on an approval), the next queued prompt goes.
   */
  private async drive(start: (signal: AbortSignal) => Promise<RunOutcome>): Promise<void> {
    let paused = false;
    await this.exclusive(async (signal) => {
      try {
        const outcome = await start(signal);
        paused = outcome.status === "paused";
        this.dispatch({ type: "settled", status: outcome.status });
      } catch (error) {
        // A served Pod gone mid-run: the notice that says so (and how to go on) is said once.
        this.dispatch(
          this.gone === undefined ? { type: "settled", error: errorMessage(error) } : { type: "settled" },
        );
      }
    });
    if (!paused) await this.sendQueued();
  }

  private async sendQueued(): Promise<void> {
    if (this.isRunning) return;
    const next = this.queued.shift();
    if (next === undefined) return;
    this.dispatch({ type: "queue_changed", queued: [...this.queued] });
    await this.runPrompt(next);
  }

  /** True when there was something to clear. */
  private clearQueue(): boolean {
    if (this.queued.length === 0) return false;
    this.queued = [];
    this.dispatch({ type: "queue_changed", queued: [] });
    return true;
  }

  /** Work on the Pod that Esc can cancel and new input must wait for (a turn, a compaction). */
  private exclusive(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const abort = new AbortController();
    this.changeBusy(() => {
      this.running = abort;
    });
    const done = work(abort.signal).finally(() => {
      if (this.running !== abort) return;
      this.changeBusy(() => {
        this.running = undefined;
        this.current = undefined;
        // Another client's run that started while this one ended is still going.
        this.servedRun = this.pod.runInProgress === true;
      });
    });
    // Whoever waits for this work only waits: its failure is reported by its own caller.
    this.current = done.catch(() => undefined);
    return done;
  }

  private async command({ name, argument }: ParsedCommand): Promise<void> {
    try {
      switch (name) {
        case "help":
          return this.notice("info", helpText());
        case "quit":
        case "exit":
          return this.quit();
        case "model":
          return await this.model(argument);
        case "effort":
          return await this.effort(argument);
        case "compact":
          return await this.compact();
        case "sessions":
          return await this.sessions();
        case "mcp":
          return this.mcp();
        case "resume":
          return await this.resume(argument);
        case "clear":
          return await this.clear();
        default: {
          const custom = customSlashCommand(name);
          if (custom !== undefined) return await this.prompt(custom.expand(argument));
          return this.notice("error", `Unknown command /${name}. /help lists the commands.`);
        }
      }
    } catch (error) {
      this.notice("error", `/${name} failed: ${errorMessage(error)}`);
    }
  }

  private async model(ref: string): Promise<void> {
    const model = this.pod.manifest?.model;
    const current = model === undefined ? "unknown" : (model.ref ?? model.id);
    if (ref === "") return this.notice("info", `Model: ${current}`);
    if (this.pod.setModel === undefined)
      return this.notice(
        "warn",
        `This Pod cannot switch models while it runs (model: ${current}). Start yoake again with --model ${ref}.`,
      );
    if (this.refuseWhileRunning("/model")) return;
    const before = new Set(this.pod.manifest?.warnings ?? []);
    await this.pod.setModel(ref);
    this.notice("success", `Model: ${ref}`);
    // What the start-up prints for the model (not in the catalogue: no prices, no window), told here too.
    for (const warning of this.pod.manifest?.warnings ?? [])
      if (!before.has(warning)) this.notice("warn", warning);
  }

  private async effort(level: string): Promise<void> {
    const current = this.pod.manifest?.generation?.effort ?? "the model's default";
    if (level === "") return this.notice("info", `Effort: ${current}`);
    if (!isEffortLevel(level))
      return this.notice("error", `Unknown effort "${level}": use ${EFFORT_LEVELS.join(", ")}.`);
    if (this.pod.setEffort === undefined)
      return this.notice(
        "warn",
        `This Pod cannot change effort while it runs. Start yoake again with --effort ${level}.`,
      );
    if (this.refuseWhileRunning("/effort")) return;
    await this.pod.setEffort(level);
    this.notice("success", `Effort: ${level}`);
  }

  private async compact(): Promise<void> {
    const compact = this.pod.compact?.bind(this.pod);
    if (compact === undefined)
      return this.notice("warn", "This Pod cannot compact conversations: /compact is not available.");
    if (this.refuseWhileRunning("/compact")) return;
    this.notice("muted", "Compacting the conversation… (Esc to stop)");
    // Prompts sent meanwhile go on to the compacted session, or the old one if it failed.
    await this.exclusive(async (signal) => {
      this.compacting = true;
      const outcome = await compact({ signal }).finally(() => {
        this.compacting = false;
      });
      const counts =
        outcome.itemsBefore !== undefined && outcome.itemsAfter !== undefined
          ? ` ${outcome.itemsBefore} history items became ${outcome.itemsAfter}.`
          : "";
      const files =
        outcome.rereadFiles !== undefined && outcome.rereadFiles.length > 0
          ? ` Read again: ${outcome.rereadFiles.join(", ")}.`
          : "";
      this.notice("success", `Compacted into session ${outcome.sessionId}.${counts}${files}`);
    }).finally(() => void this.sendQueued());
  }

  private async sessions(): Promise<void> {
    if (this.pod.listSessions === undefined)
      return this.notice("warn", "This Pod keeps no session list: /sessions is not available.");
    const sessions = await this.pod.listSessions();
    if (sessions.length === 0) return this.notice("info", "No saved sessions in this project.");
    this.notice("info", sessionsText(sessions, this.pod.sessionId));
  }

  private mcp(): void {
    const servers = this.pod.mcpServers?.() ?? [];
    if (servers.length === 0) {
      this.notice("info", "No MCP servers: add [[mcp]] tables to the manifest.");
      return;
    }
    this.notice("info", mcpServersText(servers));
  }

  /** `/resume` without an id: the picker, whose choice comes back to `resume(id)`. */
  private async resume(id: string): Promise<void> {
    if (id === "") {
      if (this.pod.listSessions === undefined)
        return this.notice("warn", "This Pod keeps no session list: give the id, /resume <id>.");
      if (this.refuseWhileRunning("/resume")) return;
      const sessions = await this.pod.listSessions();
      if (sessions.length === 0) return this.notice("info", "No saved sessions in this project.");
      this.dispatch({ type: "session_picker", sessions });
      return;
    }
    if (this.pod.resumeSession === undefined)
      return this.notice(
        "warn",
        `This Pod cannot switch sessions while it runs: leave and start yoake --resume ${id} (or --continue for the latest).`,
      );
    if (this.refuseWhileRunning("/resume")) return;
    await this.pod.resumeSession(id);
    const items = await this.history();
    const subagents = await subagentsOf(this.pod, items);
    this.dispatch({
      type: "history_loaded",
      items,
      title: `Resumed session ${id}:`,
      ...(subagents !== undefined && { subagents }),
    });
    // Its own token counts, not those of the session shown before.
    for (const action of restoredSessionActions(this.pod.restored, this.pod.manifest?.model.prices))
      this.dispatch(action);
  }

  /** The picker's choice: that session, or none (Esc). */
  async pickSession(id: string | undefined): Promise<void> {
    this.dispatch({ type: "session_picker" });
    if (id === undefined) return;
    try {
      await this.resume(id);
    } catch (error) {
      this.notice("error", `/resume failed: ${errorMessage(error)}`);
    }
  }

  /** `/clear`: a new, empty session on the same project, model and settings. */
  private async clear(): Promise<void> {
    if (this.pod.newSession === undefined)
      return this.notice(
        "warn",
        "This Pod cannot start a new session while it runs: leave and start yoake again.",
      );
    if (this.refuseWhileRunning("/clear")) return;
    const previous = this.pod.sessionId;
    await this.pod.newSession();
    const back = previous === undefined ? "" : ` The previous one: /resume ${previous}`;
    this.dispatch({ type: "session_cleared" });
    this.notice("success", `New session ${this.pod.sessionId ?? ""}: the conversation starts again.${back}`);
  }

  /**
   * The one place the Pod's busy state changes: the UI is told in the same step, so what the
   * status bar shows and what the commands check are the same value at every moment.
   */
  private changeBusy(change: () => void): void {
    const before = this.isRunning;
    change();
    const after = this.isRunning;
    if (after !== before) this.dispatch({ type: "busy", busy: after, at: this.now() });
  }

  private refuseWhileRunning(command: string): boolean {
    if (!this.isRunning) return false;
    this.notice("warn", `${command} waits for the running turn: let it end, or press Esc.`);
    return true;
  }

  private async history(): Promise<readonly Item[]> {
    if (this.pod.fetchHistory !== undefined) return this.pod.fetchHistory();
    return this.pod.history ?? [];
  }

  private notice(tone: "info" | "success" | "warn" | "error" | "muted", text: string): void {
    this.dispatch({ type: "notice", tone, text });
  }
}
