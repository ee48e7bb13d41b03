import type { BenchScheme } from "../conversation.js";

/** Where a framework under test sends its requests. */
export interface LoopTarget {
  scheme: BenchScheme;
  /** The mock provider's root URL (`http://127.0.0.1:<port>`); each framework adds its own path prefix. */
  url: string;
  /** Tool rounds before the final answer. */
  rounds: number;
}

/** What one whole conversation produced, checked by the caller. */
export interface LoopOutcome {
  /** The model's final answer. */
  text: string;
  /** How many times the tools ran. */
  toolRuns: number;
}

/** One conversation from the user's prompt to the final answer, with a fresh history each call. */
export type Conversation = () => Promise<LoopOutcome>;

/**
 * The benchmark's agent loop written with one framework, the way its documentation shows it:
 * builds what an application builds once (clients, models, tool definitions) and returns the
 * conversation to measure.
 */
export type PrepareLoop = (target: LoopTarget) => Promise<Conversation>;
