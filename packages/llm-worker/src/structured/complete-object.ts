import type { CallOptions, LlmClient } from "../llm-client/client.js";
import { LlmError } from "../llm-client/errors.js";
import { userMessage } from "../llm-client/item.js";
import type { Request } from "../llm-client/request.js";
import type { Response } from "../llm-client/response.js";
import { StructuredOutputError } from "./errors.js";
import { type OutputSpec, repairPrompt, toOutputSchema } from "./output-schema.js";

export interface CompleteObjectOptions<T> extends CallOptions {
  /** The answer's shape: a zod schema (the object is typed from it) or `outputSchema(jsonSchema)`. */
  schema: OutputSpec<T>;
  /** Send the validation issues back once and take the corrected answer (default false). */
  repair?: boolean;
}

export interface ObjectResponse<T> {
  /** The answer, parsed and validated. */
  object: T;
  /** The response it came in (the repaired one, after a repair). */
  response: Response;
}

/**
 * One completion whose answer is a JSON object of the given schema, asked for in the provider's
 * native structured-output mode. Throws `StructuredOutputError` (the text and the issues) when the
 * answer does not validate, and `LlmError` when the request failed or was cancelled.
 *
 * ```ts
 * const { object } = await completeObject(client, { items: [userMessage("Capital of France?")] },
 *   { schema: z.object({ city: z.string() }) });
 * object.city; // string
 * ```
 */
export async function completeObject<T>(
  client: LlmClient,
  request: Request,
  options: CompleteObjectOptions<T>,
): Promise<ObjectResponse<T>> {
  const { schema: spec, repair, ...call } = options;
  const schema = toOutputSchema(spec);
  let current: Request = { ...request, responseFormat: schema.format };
  let repairsLeft = repair === true ? 1 : 0;
  for (;;) {
    const response = await client.complete(current, call);
    if (response.status !== "completed") {
      throw new LlmError(response.error ?? { kind: "aborted", message: "the request was cancelled" });
    }
    const checked = schema.check(response.text);
    if (checked.ok) return { object: checked.value, response };
    if (repairsLeft-- <= 0) throw new StructuredOutputError(checked.text, checked.issues);
    current = {
      ...current,
      items: [...current.items, ...response.items, userMessage(repairPrompt(checked.issues))],
    };
  }
}
