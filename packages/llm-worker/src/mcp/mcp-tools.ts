import type {
  CallToolResult,
  jsonSchemaValidator,
  Tool as SdkTool,
  ToolAnnotations,
} from "@modelcontextprotocol/client";
import type { JsonSchema } from "../llm-client/request.js";
import type { Tool, ToolContext, ToolResultValue } from "../tool/tool.js";
import { argumentsCheck, type McpArguments } from "./mcp-arguments.js";
import { toolResultOf } from "./mcp-result.js";
import { mcpToolNames } from "./mcp-tool-name.js";

/**
 * A Worker tool backed by a tool of an MCP server. Its `name` is `<server>__<tool>` (see
 * `mcpToolNames`); `mcpName` is the name the server knows it by.
 */
export interface McpTool extends Tool<McpArguments> {
  readonly server: string;
  readonly mcpName: string;
  /** The server's display title, for a UI. */
  readonly title?: string;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, ...): hints, not guarantees. */
  readonly annotations?: ToolAnnotations;
}

/** How a tool reaches its server: one `tools/call`, cancelled through the signal. */
export type McpCallTool = (
  name: string,
  args: McpArguments,
  options: { signal: AbortSignal; timeoutMs: number },
) => Promise<CallToolResult>;

export interface McpToolsOptions {
  /** The server's name, the prefix of every tool name. */
  server: string;
  /** Each tool's `timeoutMs`, which also bounds the MCP request. */
  timeoutMs: number;
  /** Compiles the input schemas for the argument check; without one only "is an object" is checked. */
  validator?: jsonSchemaValidator;
  call: McpCallTool;
}

/** Worker tools for a server's `tools/list`, in the server's order. */
export function toMcpTools(listed: readonly SdkTool[], options: McpToolsOptions): McpTool[] {
  const names = mcpToolNames(
    options.server,
    listed.map((t) => t.name),
  );
  return listed.map((listedTool) =>
    toMcpTool(listedTool, names.get(listedTool.name) ?? listedTool.name, options),
  );
}

function toMcpTool(listed: SdkTool, name: string, options: McpToolsOptions): McpTool {
  const schema = listed.inputSchema as JsonSchema;
  // Checked against the schema as the server wrote it: `$schema` picks the validator's dialect.
  const parseArguments = argumentsCheck(schema, options.validator);
  const { call, timeoutMs } = options;
  return {
    name,
    description: listed.description ?? listed.title ?? "",
    inputSchema: providerSchema(schema),
    timeoutMs,
    server: options.server,
    mcpName: listed.name,
    ...(listed.title !== undefined && { title: listed.title }),
    ...(listed.annotations !== undefined && { annotations: listed.annotations }),
    parseArguments,
    async execute(args: McpArguments, context: ToolContext): Promise<ToolResultValue> {
      return toolResultOf(await call(listed.name, args, { signal: context.signal, timeoutMs }));
    },
  };
}

/** The schema as sent to the provider: without `$schema`, like the Worker's own tools. */
function providerSchema(schema: JsonSchema): JsonSchema {
  if (!("$schema" in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
