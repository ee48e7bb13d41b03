import type { ModelRef, Usage } from "@yoake/llm-worker";
import type { PodEvent } from "../pod/events.js";
import type { ModelPrices } from "./catalogue.js";
import type { ResolvedModel } from "./resolve.js";

const PER_MILLION = 1_000_000;

/**
 * What `usage` cost in US dollars at the catalogue's (or the manifest's) list prices, or
 * `undefined` when the model has no prices or nothing was reported. `inputTokens` includes cache
 * reads and writes (the normalized meaning): those parts are billed at their own prices, or at the
 * input price where the model lists none.
 */
export function usageCost(usage: Usage, prices: ModelPrices | undefined): number | undefined {
  if (prices === undefined) return undefined;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheCreationInputTokens ?? 0;
  const uncachedInput = Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite);
  const dollars =
    uncachedInput * prices.input +
    cacheRead * (prices.cacheRead ?? prices.input) +
    cacheWrite * (prices.cacheWrite ?? prices.input) +
    (usage.outputTokens ?? 0) * prices.output;
  return dollars / PER_MILLION;
}

/**
 * Prices a run turn by turn at the prices of the model that answered each turn: a `[model]
 * fallback` switch moves to the fallback's prices (and a probe back to the first model's), so a
 * run that fell back is not billed at the first model's prices. Feed it the Pod's events
 * (`pod.listen(meter.observe)`); `costUsd` is undefined while no priced turn reported usage, or
 * when a turn was answered by a model without prices (the sum would understate).
 */
export class RunCostMeter {
  readonly #chain: readonly ResolvedModel[];
  #current: ResolvedModel;
  #dollars: number | undefined;
  #unpriced = false;

  constructor(model: ResolvedModel) {
    this.#chain = [model, ...(model.fallback ?? [])];
    this.#current = model;
  }

  readonly observe = (event: PodEvent): void => {
    if (event.type === "fallback") {
      this.#current = this.#find(event.to) ?? this.#current;
    } else if (event.type === "turn_end" && event.response.usage !== undefined) {
      const cost = usageCost(event.response.usage, this.#current.prices);
      if (cost === undefined) {
        if (this.#current.prices === undefined) this.#unpriced = true;
        return;
      }
      this.#dollars = (this.#dollars ?? 0) + cost;
    }
  };

  get costUsd(): number | undefined {
    return this.#unpriced ? undefined : this.#dollars;
  }

  #find(ref: ModelRef): ResolvedModel | undefined {
    return this.#chain.find((model) => model.scheme === ref.scheme && model.id === ref.model);
  }
}
