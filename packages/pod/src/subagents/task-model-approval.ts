import {
  destinationOfModel,
  destinationOfTable,
  type ModelDestination,
  sameDestination,
} from "../manifest/model-destination.js";
import type { ResolvedModel } from "../manifest/resolve.js";

/** Why a `task` call waits for the user: the model it picks sends the child's conversation elsewhere. */
export interface TaskModelAsk {
  /** The `provider/model` the call asks for. */
  model: string;
  /** Where that model's conversation would go (the catalogue's or the scheme's endpoint). */
  endpoint: string;
  /** The endpoint is this machine or a local network (see `ModelDestination.local`). */
  local: boolean;
  /** One line for the user. */
  reason: string;
}

/**
 * Which `task` calls need the user's approval because of the model they pick: one whose
 * conversation (the task's prompt, and the files the child reads) would go somewhere other than
 * the parent's model, to another provider or to a local endpoint (Ollama's `localhost:11434`, a
 * port any local user can listen on). The same model, another model where the parent's goes, and
 * no model at all need none. "Allow for this session" allows that model for later calls.
 */
export class TaskModelApprovals {
  readonly #allowed = new Set<string>();
  readonly #parent: ModelDestination;

  constructor(private readonly parentModel: ResolvedModel) {
    this.#parent = destinationOfModel(parentModel);
  }

  /** Why a `task` call with `model` must be approved, or undefined when it may start now. */
  check(model: string | undefined): TaskModelAsk | undefined {
    if (model === undefined || model === this.parentModel.ref || this.#allowed.has(model)) return undefined;
    const to = destinationOfTable(model);
    // An unknown provider cannot be reached: the child's manifest refuses it before sending anything.
    if (to === undefined || sameDestination(to, this.#parent)) return undefined;
    const reason = to.local
      ? `the sub-agent would send its task and the files it reads to ${model} at ${to.endpoint}, a local address where any local user could be listening`
      : `the sub-agent would send its task and the files it reads to ${model} at ${to.endpoint}, another provider than this session's model`;
    return { model, endpoint: to.endpoint, local: to.local, reason };
  }

  /** Records the user's "allow for this session" of an ask. */
  allowForSession(ask: TaskModelAsk): void {
    this.#allowed.add(ask.model);
  }
}
