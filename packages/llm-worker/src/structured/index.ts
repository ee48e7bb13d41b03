export { type CompleteObjectOptions, completeObject, type ObjectResponse } from "./complete-object.js";
export { StructuredOutputError } from "./errors.js";
export {
  type OutputCheck,
  type OutputIssue,
  type OutputSchema,
  type OutputSchemaOptions,
  type OutputSpec,
  outputSchema,
} from "./output-schema.js";
