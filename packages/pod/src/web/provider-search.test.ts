/**
 * `[web] provider_search`: the provider's own web search in a real Pod's requests to the mock
 * provider, a warning where the model's scheme has none, and a project manifest that needs trust
 * to turn it on.
 */
import { describe, expect, it } from "vitest";
import { answer, usePodTestbed } from "../../test/support/pod-test-kit.js";
import { classifyLayer } from "../manifest/trust.js";

const bed = usePodTestbed();

describe("web.provider_search", () => {
  it("puts Anthropic's web_search server tool in every request, with its cap and domains", async () => {
    const { mock, createPod, sent } = bed();
    mock.enqueue(answer("found it"));
    const pod = await createPod({
      web: { provider_search: true, provider_search_max_uses: 4, provider_search_domains: ["nodejs.org"] },
    });
    await pod.run("what is new in Node?");
    const tools = (JSON.parse(sent(0)) as { tools: Array<Record<string, unknown>> }).tools;
    expect(tools.find((tool) => tool.name === "web_search")).toEqual({
      type: "web_search_20250305",
      name: "web_search",
      max_uses: 4,
      allowed_domains: ["nodejs.org"],
      cache_control: { type: "ephemeral" },
    });
    expect(pod.manifest.warnings).toEqual([]);
    await pod.close();
  });

  it("is off by default", async () => {
    const { mock, createPod, sent } = bed();
    mock.enqueue(answer("hi"));
    const pod = await createPod();
    await pod.run("hello");
    expect(sent(0)).not.toContain("web_search");
    await pod.close();
  });

  it("warns when the model's scheme has no provider search, and sends none", async () => {
    const { mock, createPod, sent } = bed();
    mock.enqueue(answer("hi"));
    const pod = await createPod({
      model: {
        scheme: "openai-chat",
        id: "mock-model",
        base_url: mock.baseURLFor("openai-chat"),
        api_key_env: "MOCK_KEY",
      },
      web: { provider_search: true },
    });
    expect(pod.manifest.warnings).toEqual([
      "web.provider_search is on, but the openai-chat API has no provider web search here " +
        "(Anthropic and OpenAI Responses do): the model gets none; web_fetch still works",
    ]);
    await pod.run("hello");
    expect(sent(0)).not.toContain("web_search");
    await pod.close();
  });

  it("from a project manifest, waits for trust like the rest of [web]", async () => {
    const { project } = bed();
    const { safe, requests } = await classifyLayer({ web: { provider_search: true } } as never, {
      projectRoot: project,
      below: {},
    });
    expect(requests).toEqual([
      { kind: "setting", key: "web.provider_search", description: "set web.provider_search = true" },
    ]);
    expect(safe).toEqual({});
  });
});
