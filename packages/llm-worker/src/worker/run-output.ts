import { type MessageItem, userMessage } from "../llm-client/item.js";
import { StructuredOutputError } from "../structured/errors.js";
import {
  type OutputSchema,
  type OutputSpec,
  repairPrompt,
  toOutputSchema,
} from "../structured/output-schema.js";
import type { WorkerError } from "./result.js";

/** What a run asks of its final answer, and the repair it has left. */
export type OutputVerdict =
  | { kind: "valid"; value: unknown }
  /** The answer did not validate and one repair was allowed: send this and take the next answer. */
  | { kind: "repair"; message: MessageItem }
  | { kind: "invalid"; error: WorkerError };

/**
 * The structured output of one run: the format every request of the run carries, and the check of
 * the final answer (tool rounds before it are not checked: their text is not the answer).
 */
export class RunOutput {
  private repairsLeft: number;

  private constructor(
    readonly schema: OutputSchema<unknown>,
    repair: boolean,
  ) {
    this.repairsLeft = repair ? 1 : 0;
  }

  static of(spec: OutputSpec<unknown> | undefined, repair: boolean | undefined): RunOutput | undefined {
    return spec === undefined ? undefined : new RunOutput(toOutputSchema(spec), repair === true);
  }

  judge(text: string): OutputVerdict {
    const checked = this.schema.check(text);
    if (checked.ok) return { kind: "valid", value: checked.value };
    if (this.repairsLeft > 0) {
      this.repairsLeft--;
      return { kind: "repair", message: userMessage(repairPrompt(checked.issues)) };
    }
    const error = new StructuredOutputError(checked.text, checked.issues);
    return {
      kind: "invalid",
      error: { kind: "invalid_output", message: error.message, text: error.text, issues: error.issues },
    };
  }
}
