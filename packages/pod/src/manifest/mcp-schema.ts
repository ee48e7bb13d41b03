import { z } from "zod";

/** What `connectMcp` accepts as a server name: it prefixes the tool names the providers see. */
const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;

const stringMap = z.record(z.string(), z.string());

/** An environment variable's name, as `pass_env` lists them. */
export const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected an environment variable name, e.g. GITHUB_TOKEN" });

/**
 * A `[[mcp]]` entry: an MCP server started with the Pod, its tools offered as `<name>__<tool>`.
 * Either a stdio server (`command`, with `args`, `env`, `cwd`) or a streamable HTTP one (`url`,
 * with `headers`). An entry of a higher layer with the same `name` replaces the lower one, so a
 * project can turn off a user's server with just `name` and `enabled = false`.
 */
export const mcpServerSchema = z
  .strictObject({
    name: z.string().regex(SERVER_NAME, {
      error: "expected 1 to 32 of a-z A-Z 0-9 _ - (it prefixes the server's tool names)",
    }),
    command: z.string().min(1),
    args: z.array(z.string()),
    env: stringMap,
    /** Secret variables of yoake's environment (API keys, tokens) the server gets; none otherwise. */
    pass_env: z.array(envNameSchema),
    cwd: z.string().min(1),
    url: z.url({ protocol: /^https?$/ }),
    headers: stringMap,
    enabled: z.boolean(),
    /** Each tool call's limit. */
    timeout_ms: z.number().int().positive(),
    /** The start, the MCP handshake and the first tool listing. */
    startup_timeout_ms: z.number().int().positive(),
  })
  .partial({
    command: true,
    args: true,
    env: true,
    pass_env: true,
    cwd: true,
    url: true,
    headers: true,
    enabled: true,
    timeout_ms: true,
    startup_timeout_ms: true,
  })
  .superRefine((server, context) => {
    const issue = (message: string, key: string): void => {
      context.addIssue({ code: "custom", message, path: [key] });
    };
    if (server.command !== undefined && server.url !== undefined)
      issue("set either command (a stdio server) or url (an HTTP server), not both", "url");
    // Only a disabling entry may omit both: it refers to a server another layer declares.
    if (server.command === undefined && server.url === undefined && server.enabled !== false)
      issue("expected command (a stdio server) or url (an HTTP server)", "command");
    if (server.url !== undefined)
      for (const key of ["args", "env", "pass_env", "cwd"] as const)
        if (server[key] !== undefined) issue(`applies only to a stdio server (command)`, key);
    if (server.command !== undefined && server.headers !== undefined)
      issue("applies only to an HTTP server (url)", "headers");
  });

/** The `[[mcp]]` list of one layer: names are unique within it. */
export const mcpServersSchema = z.array(mcpServerSchema).superRefine((servers, context) => {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    if (seen.has(server.name))
      context.addIssue({
        code: "custom",
        message: `another [[mcp]] entry of this file is already named ${JSON.stringify(server.name)}`,
        path: [index, "name"],
      });
    seen.add(server.name);
  });
});

/** A `[[mcp]]` entry as a layer writes it. */
export type McpServerInput = z.output<typeof mcpServerSchema>;
