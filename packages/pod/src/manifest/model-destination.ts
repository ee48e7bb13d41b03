import { isIP } from "node:net";
import type { SchemeName } from "@yoake/llm-worker";
import { getScheme } from "@yoake/llm-worker/internal";
import { lookupModel } from "./catalogue.js";
import type { ResolvedModel } from "./resolve.js";

/**
 * Where a model's conversation goes: the API it speaks and the endpoint it is sent to (the
 * manifest's `base_url`, else the catalogue's, else the scheme's default). Two models with the same
 * destination differ only in the model id: the same provider sees the same prompts and files.
 */
export interface ModelDestination {
  scheme: SchemeName;
  endpoint: string;
  /**
   * The endpoint's host is this machine or a local network (loopback, a private or link-local
   * address, `localhost`, `*.local`): a port any local user, or any machine of the network, could be
   * listening on, not a provider the user signed up with.
   */
  local: boolean;
}

/** The parts of a `[model]` table that say where it goes. */
export interface ModelNaming {
  ref?: string;
  scheme?: SchemeName;
  base_url?: string;
}

/** Where a `[model]` table (or a `provider/model` string) sends the conversation; undefined for an unknown provider. */
export function destinationOfTable(table: ModelNaming | string): ModelDestination | undefined {
  const naming = typeof table === "string" ? { ref: table } : table;
  let scheme = naming.scheme;
  let catalogueURL: string | undefined;
  if (naming.ref !== undefined) {
    const match = lookupModel(naming.ref);
    if (match === undefined) return undefined;
    scheme ??= match.providerEntry.scheme;
    catalogueURL = match.providerEntry.baseURL;
  }
  if (scheme === undefined) return undefined;
  return destination(scheme, naming.base_url ?? catalogueURL);
}

/** Where a resolved model sends the conversation (see `ModelDestination`). */
export function destinationOfModel(model: ResolvedModel): ModelDestination {
  return destination(model.scheme, model.baseURL ?? model.defaultBaseURL);
}

/** Whether two destinations are the same API at the same endpoint. */
export function sameDestination(a: ModelDestination, b: ModelDestination): boolean {
  return a.scheme === b.scheme && a.endpoint === b.endpoint;
}

function destination(scheme: SchemeName, baseURL: string | undefined): ModelDestination {
  let endpoint = baseURL;
  if (endpoint === undefined) {
    try {
      endpoint = getScheme(scheme).defaultBaseURL;
    } catch {
      // An unknown scheme: the manifest's resolution reports it; here it is just somewhere else.
      endpoint = `${scheme}:`;
    }
  }
  endpoint = endpoint.replace(/\/+$/, "");
  return { scheme, endpoint, local: isLocalEndpoint(endpoint) };
}

/**
 * Whether a URL (or Ollama's bare `host:port`) names this machine or a local network: loopback,
 * unspecified, private, link-local or unique-local addresses, `localhost` and `*.localhost`,
 * `*.local` (mDNS), and a host name without a dot (resolved on the local network).
 */
export function isLocalEndpoint(endpoint: string): boolean {
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`).hostname;
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  const version = isIP(host);
  if (version === 4) return localIPv4(host);
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped !== null) return localIPv4(mapped[1] as string);
    return (
      host === "::1" ||
      host === "::" ||
      /^f[cd][0-9a-f]{2}:/.test(host) ||
      /^fe[89ab][0-9a-f]:/.test(host) ||
      /^::ffff:(7f|a|c0a8|a9fe)/.test(host)
    );
  }
  return !host.includes(".");
}

function localIPv4(host: string): boolean {
  const [a, b] = host.split(".").map(Number) as [number, number];
  return (
    a === 127 ||
    a === 0 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}
