/**
 * What the manifest's `[web]` table lets `web_fetch` reach. A project manifest can only widen this
 * when it is trusted (see the manifest's trust rules): a repository must not open the network to
 * the agent by itself.
 */
export interface WebSettings {
  /**
   * Hosts `web_fetch` may fetch: exact names (`docs.python.org`), `*.example.com` for its
   * subdomains, or `*` for any host. Empty: the tool refuses every URL.
   */
  allowHosts: readonly string[];
  /** Also loopback, private, link-local and other local addresses (off by default). */
  allowLocal: boolean;
}

/** Whether `host` (lower-case, no port) is in `allowHosts`. */
export function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return allowHosts.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === "*") return true;
    if (p.startsWith("*.")) return name.endsWith(p.slice(1)) && name.length > p.length - 1;
    return name === p;
  });
}
