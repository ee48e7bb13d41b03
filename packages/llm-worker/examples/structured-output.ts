/**
 * `npx tsx packages/llm-worker/examples/structured-output.ts`: an answer as a typed object. The
 * schema goes to the provider's native structured-output mode (here OpenAI's `json_schema` strict),
 * the answer is parsed and validated, and `object` is typed from the zod schema. Offline: the
 * provider is the package's mock, scripted with a first answer that does not validate.
 */
import { completeObject, createClient, StructuredOutputError, userMessage } from "@yoake/llm-worker";
import { startMockProvider } from "@yoake/llm-worker/testing";
import { z } from "zod";

const provider = await startMockProvider();
provider.enqueue(
  { blocks: [{ type: "text", text: '{"city":"Paris","population":"about two million"}' }] },
  { blocks: [{ type: "text", text: '{"city":"Paris","population":2102650,"landmarks":["Louvre"]}' }] },
  { blocks: [{ type: "text", text: "Paris, of course." }] },
);
const client = createClient({
  scheme: "openai-chat",
  model: "gpt-5",
  baseURL: provider.baseURLFor("openai-chat"),
  apiKey: "not-needed-for-the-mock",
});

const City = z.object({
  city: z.string(),
  population: z.number().int(),
  landmarks: z.array(z.string()).optional(),
});
const request = { items: [userMessage("The capital of France, as JSON?")] };

// `repair: true` sends the validation issues back once and takes the corrected answer.
const { object } = await completeObject(client, request, { schema: City, repair: true });
console.log(
  `${object.city}: ${object.population.toLocaleString("en")} people, ${object.landmarks?.join(", ")}`,
);

try {
  await completeObject(client, request, { schema: City });
} catch (err) {
  if (!(err instanceof StructuredOutputError)) throw err;
  console.log(`invalid answer ${JSON.stringify(err.text)}: ${err.issues[0]?.message}`);
}
await provider.close();
