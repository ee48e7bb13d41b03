import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { describe, expect, it } from "vitest";
import { argumentsCheck } from "./mcp-arguments.js";

const validator = new AjvJsonSchemaValidator();

/** As server-everything lists `get-sum`, a draft-07 schema from zod. */
const getSum = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" }, note: { type: "string" } },
  required: ["a", "b"],
  $schema: "http://json-schema.org/draft-07/schema#",
};

describe("argumentsCheck", () => {
  const check = argumentsCheck(getSum, validator);

  it("passes valid arguments through as they are", () => {
    const args = { a: 1, b: 2 };
    const parsed = check(args);
    expect(parsed).toEqual({ ok: true, value: args });
    if (parsed.ok) expect(parsed.value).toBe(args);
  });

  it("names every bad field, and a missing one, in the Worker's format", () => {
    const parsed = check({ a: "one", note: 3 });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatch(/^invalid arguments — /);
    expect(parsed.error).toContain("(arguments): must have required property 'b'");
    expect(parsed.error).toContain("a: must be number");
    expect(parsed.error).toContain("note: must be string");
  });

  it("names nested fields by their dotted path", () => {
    const nested = argumentsCheck(
      {
        type: "object",
        properties: {
          items: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } },
        },
      },
      validator,
    );
    const parsed = nested({ items: [{ id: 1 }, { id: "x" }] });
    expect(parsed).toEqual({ ok: false, error: "invalid arguments — items.1.id: must be integer" });
  });

  it("refuses anything that is not an object, and takes no arguments as {}", () => {
    expect(check([1, 2])).toEqual({
      ok: false,
      error: "invalid arguments — (arguments): expected an object",
    });
    expect(check("a=1")).toMatchObject({ ok: false });
    expect(check(null)).toMatchObject({ ok: false });
    expect(argumentsCheck({ type: "object", properties: {} }, validator)(undefined)).toEqual({
      ok: true,
      value: {},
    });
  });

  it("drops a strict model's null for an optional field, keeps it for a required or nullable one", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "number" }, note: { type: "string" }, maybe: { type: ["string", "null"] } },
      required: ["a"],
    };
    const strict = argumentsCheck(schema, validator);
    const args = { a: 1, note: null, maybe: null };
    expect(strict(args)).toEqual({ ok: true, value: { a: 1, maybe: null } });
    expect(args).toEqual({ a: 1, note: null, maybe: null }); // the caller's object is not changed
    expect(strict({ a: null })).toMatchObject({
      ok: false,
      error: expect.stringContaining("a: must be number"),
    });
  });

  it("falls back to the object check for a schema the validator cannot compile", () => {
    const broken = argumentsCheck({ type: "object", properties: { a: { $ref: "#/nowhere" } } }, validator);
    expect(broken({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(broken(7)).toMatchObject({ ok: false });
  });

  it("checks only the object without a validator", () => {
    expect(argumentsCheck(getSum, undefined)({ a: "one" })).toEqual({ ok: true, value: { a: "one" } });
  });
});
