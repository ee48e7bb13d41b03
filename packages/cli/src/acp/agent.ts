import path from "node:path";
import {
  type AgentApp,
  agent,
  type InitializeResponse,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import { LlmError } from "@yoake/llm-worker";
import { ManifestError, Pod, ProjectTrustError, SessionLogError } from "@yoake/pod";
import { untrustedManifestLine } from "../project-trust.js";
import { AcpSession } from "./acp-session.js";

/** JSON-RPC codes of ACP's errors. */
const INTERNAL_ERROR = -32603;
const RESOURCE_NOT_FOUND = -32002;

export interface YoakeAgentOptions {
  /** The environment of every Pod: API keys, `HOME`, `XDG_*`. */
  env: Readonly<Record<string, string | undefined>>;
  /** yoake's version, told to the client. */
  version: string;
  /** A line for standard error (the editor's log of the agent). */
  log(line: string): void;
  /**
   * Whether a new session in a project that `yoake serve` serves attaches to that Pod (default
   * true; `--no-attach` gives every session a Pod of its own).
   */
  attach?: boolean;
}

/**
 * `yoake acp`: the Agent Client Protocol side of yoake. Every ACP session is a Pod of its own,
 * created from the session's `cwd` like `yoake` run there (the manifest cascade, its scope, model
 * and approvals); its session log gives the ACP session id, so `session/load` and
 * `session/resume` continue it later, from another process too.
 *
 * Methods: `initialize`, `session/new`, `session/load` (replays the conversation as updates),
 * `session/resume` (without the replay), `session/close`, `session/prompt` and the
 * `session/cancel` notification. The client's `mcpServers` are not used: the Pod takes its tools
 * from its manifest.
 *
 * A new session in a project `yoake serve` serves is that Pod, attached to over its socket: the
 * editor then watches (and answers) the same runs as the terminals attached to it.
 */
export class YoakeAgent {
  readonly app: AgentApp;
  private readonly sessions = new Map<string, AcpSession>();
  private notices = false;

  constructor(private readonly options: YoakeAgentOptions) {
    this.app = agent({ name: "yoake" })
      .onRequest(methods.agent.initialize, ({ params }) => {
        this.notices = params.clientCapabilities?.session?.notices != null;
        return this.initializeResponse();
      })
      .onRequest(methods.agent.session.new, async ({ params }) => {
        this.ignoreMcpServers(params.mcpServers?.length ?? 0);
        const session = await this.open(params.cwd, "new");
        return { sessionId: session.id };
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        this.ignoreMcpServers(params.mcpServers?.length ?? 0);
        const session =
          this.sessions.get(params.sessionId) ?? (await this.open(params.cwd, params.sessionId));
        await session.replay(client);
        return {};
      })
      .onRequest(methods.agent.session.resume, async ({ params }) => {
        this.ignoreMcpServers(params.mcpServers?.length ?? 0);
        if (!this.sessions.has(params.sessionId)) await this.open(params.cwd, params.sessionId);
        return {};
      })
      .onRequest(methods.agent.session.close, async ({ params }) => {
        const session = this.session(params.sessionId);
        this.sessions.delete(params.sessionId);
        await session.close();
        return {};
      })
      .onRequest(methods.agent.session.prompt, ({ params, client }) =>
        this.session(params.sessionId).prompt(params.prompt, client),
      )
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      });
  }

  /**
   * The connection ended: closes every session's Pod, cancelling its turn, except on a served Pod,
   * whose run goes on for its other clients.
   */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => session.close({ leaving: true })));
  }

  private initializeResponse(): InitializeResponse {
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        // Every Pod keeps a session log and restores from it.
        loadSession: true,
        promptCapabilities: { embeddedContext: true, image: true, audio: false },
        sessionCapabilities: { resume: {}, close: {} },
      },
      agentInfo: { name: "yoake", title: "Yoake", version: this.options.version },
      authMethods: [],
    };
  }

  private session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw notFound(sessionId);
    return session;
  }

  /** A Pod for `cwd`: a new session (`"new"`), or the session `choice` continued from its log. */
  private async open(cwd: string, choice: string): Promise<AcpSession> {
    if (!path.isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
    if (choice === "new" && this.options.attach !== false) {
      const served = await this.attach(cwd);
      if (served !== undefined) return served;
    }
    let pod: Pod;
    try {
      pod = await Pod.create({ cwd, env: this.options.env, session: choice });
    } catch (error) {
      throw openFailure(error, choice);
    }
    // The manifest's warnings once per session: when it starts, not each time it is loaded.
    const manifestWarnings = pod.restored === undefined ? pod.manifest.warnings : [];
    for (const warning of [...manifestWarnings, ...(pod.restored?.warnings ?? [])])
      this.options.log(`yoake acp: warning: ${warning}\n`);
    const id = choice === "new" ? pod.sessionId : choice;
    const session = new AcpSession(id, pod, { notices: this.notices, log: this.options.log });
    this.sessions.set(id, session);
    return session;
  }

  /** A session on the Pod `yoake serve` runs for `cwd`'s project, if one does. */
  private async attach(cwd: string): Promise<AcpSession | undefined> {
    const { attachToServedPod } = await import("../attach/attach.js");
    const pod = await attachToServedPod(cwd, this.options.env, {
      clientName: "yoake acp",
      answersApprovals: true,
    });
    if (pod === undefined) return undefined;
    this.options.log(`yoake acp: attached to the Pod yoake serve runs for ${pod.manifest.projectRoot}\n`);
    // As for a Pod of its own: the editor's log tells what the Pod warned about when it started.
    for (const warning of pod.warnings) this.options.log(`yoake acp: warning: ${warning}\n`);
    // The Pod's session log id, as for a Pod of its own (session/load continues it once the
    // server is gone); a second editor session on the same Pod is the same conversation, renamed.
    const base = pod.sessionId ?? "served";
    let id = base;
    for (let n = 2; this.sessions.has(id); n++) id = `${base}-${n}`;
    const session = new AcpSession(id, pod, { notices: this.notices, log: this.options.log });
    this.sessions.set(id, session);
    return session;
  }

  private ignoreMcpServers(count: number): void {
    if (count > 0)
      this.options.log(
        `yoake acp: ignoring the client's ${count} MCP server(s): yoake takes its tools from its manifest\n`,
      );
  }
}

function notFound(sessionId: string): RequestError {
  return new RequestError(RESOURCE_NOT_FOUND, `no session ${JSON.stringify(sessionId)}`, { sessionId });
}

/**
 * What a person can fix as a JSON-RPC error with the reason as its message: an unknown session,
 * an invalid manifest, a missing API key (the client is made before any request), a damaged or
 * locked session log. Anything else is a bug and stays as it is.
 */
function openFailure(error: unknown, choice: string): unknown {
  if (error instanceof SessionLogError && (error.kind === "not_found" || error.kind === "ambiguous"))
    return notFound(choice);
  if (error instanceof ProjectTrustError)
    return new RequestError(INTERNAL_ERROR, untrustedManifestLine(error));
  if (error instanceof ManifestError || error instanceof LlmError || error instanceof SessionLogError)
    return new RequestError(INTERNAL_ERROR, error.message);
  return error;
}
