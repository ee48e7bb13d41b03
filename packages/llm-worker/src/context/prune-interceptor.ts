import type { Usage } from "../llm-client/event.js";
import type { Item } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import { ContextPruner, type ContextPrunerOptions } from "./context-pruner.js";
import type { PruneDecision } from "./prune-plan.js";
import { TokenAccountant, type TokenAccountantOptions } from "./token-accounting.js";

/** The pruner's policy, and how the token accountant estimates the requests still to come. */
export interface PruneOptions extends ContextPrunerOptions {
  accounting?: TokenAccountantOptions;
}

/**
 * The prune interceptor: give it to a Worker's `interceptors`. Its shape is the Worker's
 * `Interceptor` (this layer does not import the worker): before each request it returns the
 * projected items, and the history stays as it was.
 */
export interface PruneInterceptor {
  readonly name: "prune";
  readonly pruner: ContextPruner;
  readonly accountant: TokenAccountant;
  /** Why the last request was or was not pruned (for tests, benchmarks and UIs). */
  readonly lastDecision: PruneDecision | undefined;
  onPreRequest(context: { readonly request: Readonly<Request>; readonly previousUsage: Usage | undefined }): {
    action: "project";
    items: readonly Item[];
  };
}

/**
 * Seed 003 wired as an interceptor: before each request the context is projected (old tool results
 * keep their summary, with its `[blob:<id>]` pointer, and lose their content) when the saving pays;
 * the stored history is never changed. The provider's reported usage of each request teaches the
 * token accountant, so estimates are anchored on exact figures.
 */
export function pruneInterceptor(options: PruneOptions = {}): PruneInterceptor {
  const pruner = new ContextPruner(options);
  const accountant = new TokenAccountant(options.accounting);
  let lastSent: readonly Item[] | undefined;
  let lastDecision: PruneDecision | undefined;
  return {
    name: "prune",
    pruner,
    accountant,
    get lastDecision() {
      return lastDecision;
    },
    onPreRequest({ request, previousUsage }) {
      if (lastSent && previousUsage) accountant.record(lastSent, previousUsage);
      const projection = pruner.project(request.items, accountant);
      lastSent = projection.items;
      lastDecision = projection.decision;
      return { action: "project", items: projection.items };
    },
  };
}
