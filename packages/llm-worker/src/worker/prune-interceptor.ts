import { ContextPruner, type ContextPrunerOptions } from "../context/context-pruner.js";
import type { PruneDecision } from "../context/prune-plan.js";
import { TokenAccountant, type TokenAccountantOptions } from "../context/token-accounting.js";
import type { Item } from "../llm-client/item.js";
import type { Interceptor } from "./hooks.js";

export interface PruneOptions extends ContextPrunerOptions {
  accounting?: TokenAccountantOptions;
}

export interface PruneInterceptor extends Interceptor {
  readonly pruner: ContextPruner;
  readonly accountant: TokenAccountant;
  /** Why the last request was or was not pruned (for tests, benchmarks and UIs). */
  readonly lastDecision: PruneDecision | undefined;
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
      request.items = projection.items;
      lastSent = projection.items;
      lastDecision = projection.decision;
      return undefined;
    },
  };
}
