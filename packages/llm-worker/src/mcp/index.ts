export type { ArgumentsCheck, McpArguments } from "./mcp-arguments.js";
export type {
  McpCommonConfig,
  McpHttpConfig,
  McpServerConfig,
  McpStdioConfig,
  McpTransportConfig,
} from "./mcp-config.js";
export { McpConnectError, type McpConnectErrorKind } from "./mcp-connect-error.js";
export {
  type ConnectMcpOptions,
  connectMcp,
  type McpCloseInfo,
  McpConnection,
  type McpServerInfo,
} from "./mcp-connection.js";
export { toolResultOf } from "./mcp-result.js";
export { MCP_NAME_SEPARATOR, mcpToolNames } from "./mcp-tool-name.js";
export type { McpCallTool, McpTool, McpToolsOptions } from "./mcp-tools.js";
export { toMcpTools } from "./mcp-tools.js";
