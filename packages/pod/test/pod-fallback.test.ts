/**
 * `[model] fallback` through a real Pod and the mock provider over HTTP: the Pod's client is a
 * chain, the switch is a `fallback` event saying why, and the answer comes from the next model.
 */
import { expect, it } from "vitest";
import { answer } from "./support/pod-test-kit.js";
import { useSessionTestbed } from "./support/session-test-kit.js";

const bed = useSessionTestbed();

it("asks the fallback model when the model does not exist, and says so", async () => {
  const { open, mock, eventsOf } = bed();
  mock.setHandler((request) =>
    request.scheme === "anthropic"
      ? { fault: "status", status: 404, message: "model: mock-model", code: "not_found_error" }
      : answer("From the fallback."),
  );
  const pod = await open({
    overrides: {
      model: {
        scheme: "anthropic",
        id: "mock-model",
        base_url: mock.baseURLFor("anthropic"),
        api_key_env: "MOCK_KEY",
        fallback: [{ scheme: "ollama", id: "llama-test", base_url: mock.baseURLFor("ollama") }],
      },
    },
  });
  const result = await pod.run("hello");
  expect(result).toMatchObject({ status: "finished", text: "From the fallback." });
  expect(mock.requests.map((r) => r.scheme)).toEqual(["anthropic", "ollama"]);
  expect(eventsOf(pod).filter((e) => e.type === "fallback")).toEqual([
    expect.objectContaining({
      from: { scheme: "anthropic", model: "mock-model" },
      to: { scheme: "ollama", model: "llama-test" },
      reason: "error",
      error: expect.objectContaining({ kind: "not_found", status: 404 }),
    }),
  ]);
  await pod.close();
});
