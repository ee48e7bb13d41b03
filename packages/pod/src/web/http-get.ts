import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isLocalAddress } from "./local-address.js";
import { hostAllowed, type WebSettings } from "./web-settings.js";

/** A page as fetched: where it ended up (after redirects), its status and type, its first bytes. */
export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was longer than the size limit and was cut there. */
  truncated: boolean;
}

export interface HttpGetOptions {
  settings: WebSettings;
  maxBytes: number;
  signal: AbortSignal;
}

/** Why a URL was not fetched; its message is for the model. */
export class WebFetchRefused extends Error {}

const MAX_REDIRECTS = 5;

/**
 * GETs `url` with no cookies, no credentials and no headers but an Accept and a User-Agent,
 * following at most 5 redirects. Every URL of the chain must be http(s) on an allowed host, and
 * every address connected to must be public unless local addresses are allowed: the address is
 * checked in the connection's own DNS lookup, so a name cannot resolve one way for the check and
 * another for the connection.
 */
export async function httpGet(url: string, options: HttpGetOptions): Promise<FetchedPage> {
  let current = parseUrl(url);
  for (let redirects = 0; ; redirects++) {
    checkUrl(current, options.settings);
    const response = await getOnce(current, options);
    if (response.location === undefined) return response.page;
    if (redirects >= MAX_REDIRECTS) throw new WebFetchRefused(`more than ${MAX_REDIRECTS} redirects`);
    current = parseUrl(new URL(response.location, current).toString());
  }
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new WebFetchRefused(`not a URL: ${JSON.stringify(text)}`);
  }
}

function checkUrl(url: URL, settings: WebSettings): void {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new WebFetchRefused(`only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "")
    throw new WebFetchRefused("URLs with credentials are not fetched");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!hostAllowed(host, settings.allowHosts))
    throw new WebFetchRefused(
      settings.allowHosts.length === 0
        ? "web access is off: the manifest's web.allow_hosts is empty"
        : `${host} is not in the manifest's web.allow_hosts`,
    );
  if (!settings.allowLocal && isIP(host) !== 0 && isLocalAddress(host)) throw localRefusal(host);
}

function localRefusal(what: string): WebFetchRefused {
  return new WebFetchRefused(
    `${what} is a local network address; local addresses are fetched only when the manifest sets web.allow_local`,
  );
}

/** A DNS lookup that fails for local addresses (unless allowed), so the socket never connects to one. */
function guardedLookup(allowLocal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, "", 0);
      const local = addresses.find((a) => isLocalAddress(a.address));
      if (!allowLocal && local !== undefined)
        return callback(localRefusal(`${hostname} (${local.address})`), "", 0);
      if (options.all === true) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(new Error(`${hostname} has no address`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}

async function getOnce(
  url: URL,
  { settings, maxBytes, signal }: HttpGetOptions,
): Promise<{ page: FetchedPage; location?: undefined } | { location: string; page?: undefined }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        headers: {
          accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.1",
          "user-agent": "yoake-web-fetch",
        },
        lookup: guardedLookup(settings.allowLocal),
        agent: false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location !== undefined) {
          response.resume();
          return resolve({ location });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        response.on("data", (chunk: Buffer) => {
          if (truncated) return;
          const room = maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            size = maxBytes;
            truncated = true;
            response.destroy();
            return finish();
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        const finish = () =>
          resolve({
            page: {
              url: url.toString(),
              status,
              contentType: String(response.headers["content-type"] ?? ""),
              body: Buffer.concat(chunks),
              truncated,
            },
          });
        response.on("end", finish);
        response.on("error", (error) => (truncated ? undefined : reject(error)));
      },
    );
    // A refusal raised in the lookup arrives here as it was thrown.
    request.on("error", reject);
  });
}
