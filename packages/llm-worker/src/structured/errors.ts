import { describeOutputIssues, type OutputIssue } from "./output-schema.js";

/**
 * An answer that does not match the schema it was asked for (after the repair attempt, if one was
 * allowed): the model's text as it came, and what is wrong with it.
 */
export class StructuredOutputError extends Error {
  readonly kind = "invalid_output";
  readonly text: string;
  readonly issues: OutputIssue[];

  constructor(text: string, issues: OutputIssue[]) {
    super(`the answer does not match the output schema: ${describeOutputIssues(issues)}`);
    this.name = "StructuredOutputError";
    this.text = text;
    this.issues = issues;
  }
}
