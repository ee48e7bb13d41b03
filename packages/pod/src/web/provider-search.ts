import type { SchemeName, WebSearchConfig } from "@yoake/llm-worker";

/** The schemes whose API has a web search the provider runs itself (a server tool). */
const SCHEMES_WITH_WEB_SEARCH: ReadonlySet<SchemeName> = new Set(["anthropic", "openai-responses"]);

/** The manifest's `[web]` keys of the provider's own search, as the schema reads them. */
export interface ProviderSearchTable {
  provider_search?: boolean;
  provider_search_max_uses?: number;
  provider_search_domains?: string[];
}

/**
 * `[web] provider_search = true`: the request's `webSearch` for a model of `scheme`, or undefined
 * when it is off. A scheme without a provider search gets none, and a warning says so rather than
 * the model silently never searching. Why it needs no host list: the provider runs the search and
 * reads the pages on its side; nothing here touches the network.
 */
export function providerWebSearch(
  web: ProviderSearchTable,
  scheme: SchemeName,
  warnings: string[],
): WebSearchConfig | undefined {
  if (web.provider_search !== true) return undefined;
  if (!SCHEMES_WITH_WEB_SEARCH.has(scheme)) {
    warnings.push(
      `web.provider_search is on, but the ${scheme} API has no provider web search here ` +
        "(Anthropic and OpenAI Responses do): the model gets none; web_fetch still works",
    );
    return undefined;
  }
  return {
    ...(web.provider_search_max_uses !== undefined && { maxUses: web.provider_search_max_uses }),
    ...(web.provider_search_domains !== undefined && { allowedDomains: web.provider_search_domains }),
  };
}
