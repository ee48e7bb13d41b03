import type {
  EffortLevel,
  PermissionDecision,
  Pod,
  PodEvent,
  PodOptions,
  PodRunOptions,
  Segment,
} from "@yoake/pod";
import type { PodLike } from "./tui/pod-like.js";

/**
 * The Pod the terminal UI talks to. `/resume <id>`, `/clear` and `/model <ref>` replace it with a
 * Pod reopened on another session, a new one, or on the same session with another model (the conversation goes
 * on in the same log). Listeners stay subscribed across the swap.
 */
export class SwitchablePod implements PodLike {
  private readonly listeners = new Set<(event: PodEvent) => void>();
  private unlisten: () => void;

  constructor(
    private pod: Pod,
    private options: PodOptions,
    private readonly open: (options: PodOptions) => Promise<Pod>,
  ) {
    this.unlisten = this.forward(pod);
  }

  /** The Pod in use now (to close it at the end). */
  get current(): Pod {
    return this.pod;
  }
  get history() {
    return this.pod.history;
  }
  get restored() {
    return this.pod.restored;
  }
  get plan() {
    return this.pod.plan;
  }
  get pendingPermission() {
    return this.pod.pendingPermission;
  }
  get manifest() {
    return this.pod.manifest;
  }
  get fs() {
    return this.pod.fs;
  }
  get sessionId() {
    return this.pod.sessionId;
  }

  run(input: readonly Segment[], options: PodRunOptions) {
    return this.pod.run(input, options);
  }
  respond(id: string, decision: PermissionDecision, options: { signal?: AbortSignal }) {
    return this.pod.respond(id, decision, options);
  }
  compact(options: { signal?: AbortSignal }) {
    return this.pod.compact(options);
  }
  listSessions() {
    return this.pod.listSessions();
  }
  sessionHistory(sessionId: string) {
    return this.pod.sessionHistory(sessionId);
  }
  mcpServers() {
    return this.pod.mcpServers();
  }
  listen(listener: (event: PodEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  resumeSession(id: string): Promise<void> {
    return this.reopen({ ...this.options, session: id });
  }

  /** A new session with the same options (the model chosen by /model included). */
  newSession(): Promise<void> {
    const { session: _previous, ...options } = this.options;
    return this.reopen(options);
  }

  /** The same session, reopened with another effort level (the change is logged as an alert). */
  setEffort(level: EffortLevel): Promise<void> {
    const overrides = {
      ...this.options.overrides,
      generation: { ...this.options.overrides?.generation, effort: level },
    };
    // Before the first message the session has no log yet: there is nothing to continue.
    const session = this.pod.history.length === 0 ? "new" : this.pod.sessionId;
    return this.reopen({ ...this.options, overrides, session });
  }

  setModel(ref: string): Promise<void> {
    const overrides = { ...this.options.overrides, model: { ref } };
    return this.reopen({ ...this.options, overrides, ...this.currentSession() });
  }

  /**
   * The old Pod is closed first: it holds its session log's writer lock, which the new one may
   * need. If the new one cannot open, the old session is opened again and the error reported.
   */
  private async reopen(options: PodOptions): Promise<void> {
    const previous = { ...this.options, session: this.pod.sessionId };
    this.unlisten();
    await this.pod.close();
    let next: Pod;
    try {
      next = await this.open(options);
    } catch (error) {
      this.pod = await this.open(previous);
      this.unlisten = this.forward(this.pod);
      throw error;
    }
    this.pod = next;
    this.options = options;
    this.unlisten = this.forward(next);
  }

  /** The session to go on in: none while it is empty (it may have no log yet to open). */
  private currentSession(): { session?: string } {
    return this.pod.history.length > 0 ? { session: this.pod.sessionId } : {};
  }

  private forward(pod: Pod): () => void {
    return pod.listen((event) => {
      for (const listener of this.listeners) listener(event);
    });
  }
}
