import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { JsonSchema } from "../llm-client/request.js";
import {
  type Tool,
  type ToolContext,
  toJsonSchema,
  tool,
  toolDefinition,
  toolsFrom,
  toStrictJsonSchema,
} from "./tool.js";

const context: ToolContext = { signal: new AbortController().signal, callId: "call_1", toolName: "t" };

const searchInput = z.object({
  query: z.string().describe("What to look for"),
  limit: z.number().int().min(1).default(10),
  tags: z.array(z.string()).optional(),
  filters: z
    .object({
      minPrice: z.number(),
      inStock: z.boolean().optional(),
    })
    .optional(),
  cursor: z.string().nullable().optional(),
  sort: z.enum(["relevance", "date"]).optional(),
});

const search = tool({
  name: "search",
  description: "Search the catalogue",
  input: searchInput,
  execute: (args) => JSON.stringify(args),
});

/** Every node of a JSON value, for "nowhere in the schema" assertions. */
function* nodes(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const inner of value) yield* nodes(inner);
  else if (typeof value === "object" && value !== null) {
    yield value as Record<string, unknown>;
    for (const inner of Object.values(value)) yield* nodes(inner);
  }
}

/** The object schemas of a schema tree (nodes that declare properties). */
function objectSchemas(schema: JsonSchema): Record<string, unknown>[] {
  return [...nodes(schema)].filter((node) => node.type === "object" && typeof node.properties === "object");
}

describe("tool(): the JSON Schema comes from the zod schema", () => {
  it("describes every field, requires only the fields without default or optional, has no $schema", () => {
    expect(search.inputSchema).not.toHaveProperty("$schema");
    expect(search.inputSchema).toMatchObject({
      type: "object",
      properties: {
        query: { type: "string", description: "What to look for" },
        limit: { type: "integer", minimum: 1, default: 10 },
        tags: { type: "array", items: { type: "string" } },
        filters: { type: "object", required: ["minPrice"] },
        sort: { type: "string", enum: ["relevance", "date"] },
      },
      required: ["query"],
    });
  });

  it("toJsonSchema drops only $schema", () => {
    const schema = toJsonSchema(z.object({ a: z.string() }));
    expect(schema).toEqual({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
  });

  it("keeps name, description and timeoutMs", () => {
    const t = tool({ name: "n", description: "d", input: z.object({}), timeoutMs: 5, execute: () => "" });
    expect(t).toMatchObject({ name: "n", description: "d", timeoutMs: 5 });
    expect(tool({ name: "n", description: "d", input: z.object({}), execute: () => "" })).not.toHaveProperty(
      "timeoutMs",
    );
  });
});

describe("tool(): arguments are validated before execute", () => {
  it("applies defaults, so execute sees them", async () => {
    const parsed = search.parseArguments({ query: "tea" });
    expect(parsed).toEqual({ ok: true, value: { query: "tea", limit: 10 } });
    if (!parsed.ok) return;
    expect(JSON.parse((await search.execute(parsed.value, context)) as string)).toEqual({
      query: "tea",
      limit: 10,
    });
  });

  it("names each bad field, nested ones by their path", () => {
    const parsed = search.parseArguments({ query: 42, limit: 0, filters: { minPrice: "cheap" } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatch(/^invalid arguments — /);
    expect(parsed.error).toContain("query: ");
    expect(parsed.error).toContain("limit: ");
    expect(parsed.error).toContain("filters.minPrice: ");
  });

  it("says when the arguments are not an object at all", () => {
    const parsed = search.parseArguments("tea");
    expect(parsed).toMatchObject({ ok: false, error: expect.stringContaining("(arguments): ") });
  });

  it("hands execute its context", async () => {
    const seen: ToolContext[] = [];
    const t = tool({
      name: "echo",
      description: "",
      input: z.object({}),
      execute: (_args, ctx) => {
        seen.push(ctx);
        return "ok";
      },
    });
    await t.execute({}, context);
    expect(seen).toEqual([context]);
  });
});

describe("toStrictJsonSchema: OpenAI strict function schemas", () => {
  const strict = toStrictJsonSchema(search.inputSchema);

  it("requires every property and closes every object", () => {
    const objects = objectSchemas(strict);
    expect(objects.length).toBe(2); // the arguments and `filters`
    for (const object of objects) {
      expect(object.required).toEqual(Object.keys(object.properties as object));
      expect(object.additionalProperties).toBe(false);
    }
  });

  it("makes optional properties nullable, leaves required ones and already nullable ones as they are", () => {
    const properties = strict.properties as Record<string, Record<string, unknown>>;
    expect(properties.query).toEqual({ type: "string", description: "What to look for" });
    expect(properties.tags).toEqual({
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }],
    });
    expect(properties.sort).toEqual({
      anyOf: [{ type: "string", enum: ["relevance", "date"] }, { type: "null" }],
    });
    expect(properties.limit?.anyOf).toEqual([
      { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      { type: "null" },
    ]);
    expect(properties.cursor).toEqual({ type: ["string", "null"] });
    const filters = properties.filters?.anyOf as Record<string, unknown>[];
    expect(filters[1]).toEqual({ type: "null" });
    expect(filters[0]?.properties).toEqual({
      minPrice: { type: "number" },
      inStock: { anyOf: [{ type: "boolean" }, { type: "null" }] },
    });
  });

  it("leaves no default anywhere", () => {
    for (const node of nodes(strict)) expect(node).not.toHaveProperty("default");
  });

  it("does not change the schema it was given", () => {
    const before = JSON.stringify(search.inputSchema);
    toStrictJsonSchema(search.inputSchema);
    expect(JSON.stringify(search.inputSchema)).toBe(before);
  });

  it("rewrites schema positions only: a property named default and enum values stay", () => {
    const schema = toJsonSchema(
      z.object({
        default: z.string(),
        mode: z.literal("object").optional(),
        shape: z.enum(["object", "array"]),
      }),
    );
    const out = toStrictJsonSchema(schema);
    expect(Object.keys(out.properties as object)).toEqual(["default", "mode", "shape"]);
    expect(out.required).toEqual(["default", "mode", "shape"]);
    expect((out.properties as Record<string, unknown>).shape).toEqual({
      type: "string",
      enum: ["object", "array"],
    });
  });

  it("closes objects inside arrays and in $defs (recursive schemas)", () => {
    const Node: z.ZodType<TreeNode> = z.object({
      name: z.string(),
      note: z.string().optional(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const out = toStrictJsonSchema(
      toJsonSchema(z.object({ root: Node, rows: z.array(z.object({ id: z.number().optional() })) })),
    );
    const objects = objectSchemas(out);
    expect(objects.length).toBe(3);
    for (const object of objects) {
      expect(object.additionalProperties).toBe(false);
      expect(object.required).toEqual(Object.keys(object.properties as object));
    }
  });
});

interface TreeNode {
  name: string;
  note?: string | undefined;
  children?: TreeNode[] | undefined;
}

describe("a strict model's null for an optional field still validates", () => {
  it("drops the nulls of optional fields, so defaults apply and absent stays absent", () => {
    const parsed = search.parseArguments({
      query: "tea",
      limit: null,
      tags: null,
      filters: { minPrice: 3, inStock: null },
      cursor: null,
      sort: null,
    });
    expect(parsed).toEqual({
      ok: true,
      value: { query: "tea", limit: 10, filters: { minPrice: 3 }, cursor: null },
    });
  });

  it("accepts null for every optional field of a strict schema (the whole arguments object filled with null)", () => {
    const parsed = search.parseArguments({
      query: "tea",
      limit: null,
      tags: null,
      filters: null,
      cursor: null,
      sort: null,
    });
    expect(parsed).toEqual({ ok: true, value: { query: "tea", limit: 10, cursor: null } });
  });

  it("still rejects null for a required field, naming it", () => {
    const parsed = search.parseArguments({ query: null, filters: { minPrice: null } });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toContain("query: ");
    expect(parsed.error).toContain("filters.minPrice: ");
  });

  it("reaches into arrays of objects and recursive schemas", () => {
    const Node: z.ZodType<TreeNode> = z.object({
      name: z.string(),
      note: z.string().optional(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const t = tool({ name: "tree", description: "", input: z.object({ root: Node }), execute: () => "" });
    const parsed = t.parseArguments({
      root: { name: "a", note: null, children: [{ name: "b", note: null, children: null }] },
    });
    expect(parsed).toEqual({ ok: true, value: { root: { name: "a", children: [{ name: "b" }] } } });
  });

  it("does not change the arguments it was given (hooks and history share them)", () => {
    const raw = { query: "tea", limit: null, filters: { minPrice: 3, inStock: null } };
    const before = structuredClone(raw);
    search.parseArguments(raw);
    expect(raw).toEqual(before);
  });
});

describe("toolDefinition", () => {
  it("sends the tool's own schema, or its strict form", () => {
    expect(toolDefinition(search)).toEqual({
      name: "search",
      description: "Search the catalogue",
      inputSchema: search.inputSchema,
    });
    const strict = toolDefinition(search, { strict: true });
    expect(strict.inputSchema).toEqual(toStrictJsonSchema(search.inputSchema));
    // Computed once per tool: every request of a run sends the same schema.
    expect(toolDefinition(search, { strict: true }).inputSchema).toBe(strict.inputSchema);
  });
});

describe("toolsFrom: tools from the methods of an object holding state", () => {
  class Notebook {
    private readonly notes: string[] = [];
    constructor(private readonly owner: string) {}
    add(args: { text: string }): string {
      this.notes.push(args.text);
      return `${this.owner} has ${this.notes.length} notes`;
    }
    list(_args: Record<string, never>, ctx: ToolContext): string {
      return `${ctx.callId}: ${this.notes.join(", ")}`;
    }
    notATool = 3;
  }

  const notebook = new Notebook("Ada");
  const tools = toolsFrom(notebook, {
    add: { name: "add_note", description: "Add a note", input: z.object({ text: z.string().min(1) }) },
    list: { name: "list_notes", description: "List the notes", input: z.object({}) },
  });
  const byName = new Map(tools.map((t) => [t.name, t]));

  it("makes one tool per listed method, with its schema", () => {
    expect(tools.map((t) => t.name)).toEqual(["add_note", "list_notes"]);
    expect(byName.get("add_note")?.inputSchema).toMatchObject({ required: ["text"] });
  });

  it("calls the method on the object, so `this` and its state work", async () => {
    const add = byName.get("add_note") as Tool;
    const list = byName.get("list_notes") as Tool;
    expect(await add.execute({ text: "milk" }, context)).toBe("Ada has 1 notes");
    expect(await add.execute({ text: "eggs" }, context)).toBe("Ada has 2 notes");
    expect(await list.execute({}, context)).toBe("call_1: milk, eggs");
  });

  it("validates with the given schema", () => {
    const add = byName.get("add_note") as Tool;
    expect(add.parseArguments({ text: "" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("text: "),
    });
  });

  it("refuses a name that is not a method", () => {
    expect(() =>
      // @ts-expect-error notATool is a number, not a method
      toolsFrom(notebook, { notATool: { name: "x", description: "", input: z.object({}) } }),
    ).toThrow(TypeError);
  });
});
