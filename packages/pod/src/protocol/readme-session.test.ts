/**
 * The protocol session in packages/pod/README.md is real: every client line is a valid request,
 * every Pod line a valid response or event, and each result matches the method it answers.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { clientRequestSchema, type MethodName, methodResultSchemas, type RequestId } from "./messages.js";
import { serverMessageSchema } from "./wire-events.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(path.resolve(here, "../../README.md"), "utf8");

function sessionLines(): string[] {
  const section = readme.slice(readme.indexOf("## Protocol"));
  const start = section.indexOf("```text\n") + "```text\n".length;
  return section.slice(start, section.indexOf("```", start)).trimEnd().split("\n");
}

describe("the README's protocol session", () => {
  it("holds only valid lines, and each result fits its method", () => {
    const lines = sessionLines();
    expect(lines.length).toBeGreaterThan(20);
    const methods = new Map<RequestId, MethodName>();
    let malformed = 0;
    for (const line of lines) {
      const text = line.slice(2);
      if (line.startsWith("> ")) {
        let request: unknown;
        try {
          request = JSON.parse(text);
        } catch (error) {
          // The example of a line that is not JSON: the next line must be the Pod's exact answer.
          malformed++;
          const answer = lines[lines.indexOf(line) + 1]?.slice(2) ?? "";
          expect(JSON.parse(answer)).toEqual({
            id: null,
            error: { code: "parse_error", message: `the line is not JSON: ${(error as Error).message}` },
          });
          continue;
        }
        const parsed = clientRequestSchema.parse(request);
        methods.set(parsed.id, parsed.method);
        continue;
      }
      expect(line.startsWith("< "), line).toBe(true);
      const message = JSON.parse(text);
      expect(serverMessageSchema.safeParse(message).success, line).toBe(true);
      if ("id" in message && "result" in message) {
        const method = methods.get(message.id);
        expect(method, line).toBeDefined();
        expect(methodResultSchemas[method as MethodName].safeParse(message.result).success, line).toBe(true);
      }
    }
    expect(malformed).toBe(1);
  });
});
