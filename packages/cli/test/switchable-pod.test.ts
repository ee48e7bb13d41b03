import { Pod } from "@yoake/pod";
import { afterEach, describe, expect, it } from "vitest";
import { SwitchablePod } from "../src/switchable-pod.js";
import { headlessFixture, userTexts } from "./cli-test-kit.js";

let fixture: Awaited<ReturnType<typeof headlessFixture>> | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const answer = (text: string) => ({ blocks: [{ type: "text" as const, text }] });

describe("SwitchablePod (/model and /resume in the terminal UI)", () => {
  it("switches the model and keeps the conversation and the listeners", async () => {
    fixture = await headlessFixture();
    const f = fixture;
    const options = { cwd: f.project.dir, env: f.env };
    const pod = new SwitchablePod(await Pod.create(options), options, Pod.create);
    const texts: string[] = [];
    pod.listen((event) => {
      if (event.type === "text_complete") texts.push(event.text);
    });
    f.provider.enqueue(answer("first"), answer("second"));
    await pod.run([{ type: "text", text: "one" }], {});
    const session = pod.sessionId;
    await pod.setModel("anthropic/claude-opus-4-6");
    expect(pod.manifest.model.id).toBe("claude-opus-4-6");
    await pod.run([{ type: "text", text: "two" }], {});
    expect(texts).toEqual(["first", "second"]);
    expect(pod.sessionId).toBe(session);
    const second = f.provider.requests[1];
    expect(second?.model).toBe("claude-opus-4-6");
    expect(userTexts(second?.body)).toEqual(["one", "two"]);
    await pod.current.close();
  });

  it("resumes another session by id, and keeps the current one when the id is unknown", async () => {
    fixture = await headlessFixture();
    const f = fixture;
    const options = { cwd: f.project.dir, env: f.env };
    f.provider.enqueue(answer("earlier answer"), answer("now"));
    const earlier = await Pod.create(options);
    await earlier.run("an earlier question");
    const earlierId = earlier.sessionId;
    await earlier.close();

    const pod = new SwitchablePod(await Pod.create({ ...options, session: "new" }), options, Pod.create);
    const fresh = pod.sessionId;
    await expect(pod.resumeSession("no-such-session")).rejects.toThrow();
    expect(pod.sessionId).toBe(fresh);
    await pod.resumeSession(earlierId);
    expect(pod.sessionId).toBe(earlierId);
    expect(pod.history.map((item) => (item.type === "message" ? item.text : item.type))).toEqual([
      "an earlier question",
      "earlier answer",
    ]);
    await pod.run([{ type: "text", text: "and now?" }], {});
    expect(userTexts(f.provider.requests[1]?.body)).toEqual(["an earlier question", "and now?"]);
    await pod.current.close();
  });

  it("/clear goes on in a new, empty session with the model chosen, the old one kept", async () => {
    fixture = await headlessFixture();
    const f = fixture;
    const options = { cwd: f.project.dir, env: f.env };
    const pod = new SwitchablePod(await Pod.create(options), options, Pod.create);
    f.provider.enqueue(answer("first"), answer("fresh"));
    await pod.setModel("anthropic/claude-opus-4-6");
    await pod.run([{ type: "text", text: "before the clear" }], {});
    const old = pod.sessionId;
    await pod.newSession();
    expect(pod.sessionId).not.toBe(old);
    expect(pod.history).toEqual([]);
    await pod.run([{ type: "text", text: "after" }], {});
    const request = f.provider.requests[1];
    expect(request?.model).toBe("claude-opus-4-6");
    expect(userTexts(request?.body)).toEqual(["after"]);
    expect((await pod.listSessions()).map((session) => session.id)).toContain(old);
    await pod.current.close();
  });
});
