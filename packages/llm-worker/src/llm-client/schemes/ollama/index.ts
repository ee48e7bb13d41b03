import type { Scheme } from "../../scheme.js";
import { createOllamaDecoder } from "./decoder.js";
import { buildOllamaBody } from "./request.js";

const DEFAULT_BASE_URL = "http://127.0.0.1:11434";
/** Ollama's port, assumed when `OLLAMA_HOST` names a host without one and without a scheme. */
const DEFAULT_PORT = "11434";

/**
 * Ollama's native chat API: `POST {base}/api/chat`, NDJSON stream. A local server needs no key;
 * Ollama's cloud takes `Authorization: Bearer <key>`.
 */
export const ollamaScheme: Scheme = {
  name: "ollama",
  framing: "ndjson",
  defaultBaseURL: DEFAULT_BASE_URL,
  env: { apiKey: "OLLAMA_API_KEY", baseURL: "OLLAMA_HOST" },
  buildHttpRequest(request, endpoint) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
    if (endpoint.headers) Object.assign(headers, endpoint.headers);
    return {
      url: `${ollamaBaseURL(endpoint.baseURL)}/api/chat`,
      headers,
      body: buildOllamaBody(request, request.model ?? endpoint.model),
    };
  },
  createDecoder: (emit) => createOllamaDecoder(emit),
};

/**
 * A base URL read the way Ollama reads `OLLAMA_HOST`: `0.0.0.0:11434` means `http://0.0.0.0:11434`,
 * a bare host gets port 11434, bare `ollama.com` is the cloud over https; a URL with a scheme is
 * taken as written. No trailing slash.
 */
export function ollamaBaseURL(configured: string | undefined): string {
  const value = configured?.trim() ?? "";
  if (value === "") return DEFAULT_BASE_URL;
  let url: string;
  if (value.includes("://")) {
    url = value;
  } else if (value === "ollama.com") {
    url = "https://ollama.com";
  } else {
    const slash = value.indexOf("/");
    const hostPort = slash === -1 ? value : value.slice(0, slash);
    const path = slash === -1 ? "" : value.slice(slash);
    url = `http://${withPort(hostPort)}${path}`;
  }
  return url.endsWith("/") ? url.replace(/\/+$/, "") : url;
}

/** Adds the default port where the host has none, as Ollama does (`:11434` alone is the local host). */
function withPort(hostPort: string): string {
  if (hostPort.startsWith("[")) return /\]:\d+$/.test(hostPort) ? hostPort : `${hostPort}:${DEFAULT_PORT}`;
  const colon = hostPort.indexOf(":");
  if (colon === -1) return `${hostPort}:${DEFAULT_PORT}`;
  // More than one colon and no brackets: a bare IPv6 address, which needs brackets before a port.
  if (hostPort.indexOf(":", colon + 1) !== -1) return `[${hostPort}]:${DEFAULT_PORT}`;
  return colon === 0 ? `127.0.0.1${hostPort}` : hostPort;
}
