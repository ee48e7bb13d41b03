/**
 * Approvals through a real Pod, the real file tools and the mock provider: allow once, allow for
 * the session, deny with a reason the model reads, an abandoned request, and `approve = []`.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PodEvent } from "../src/pod/events.js";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

const write = (file: string, content: string) => toolCall("write_file", { path: file, content });
const permissionEvents = (events: readonly PodEvent[]) =>
  events.filter((e) => e.type === "permission_request" || e.type === "permission_resolved");

describe("approvals", () => {
  it("pause before write_file with a diff preview; allow_once runs the call and continues the run", async () => {
    const { createPod, mock, project } = bed();
    mock.enqueue(write("notes.md", "hello\n"), answer("written"));
    const pod = await createPod();

    const paused = await pod.run("write a note");
    expect(paused).toMatchObject({ status: "paused", by: "pod" });
    const request = paused.permissionRequest;
    expect(request).toMatchObject({
      tool: "write_file",
      arguments: { path: "notes.md", content: "hello\n" },
      preview: { ok: true, path: "notes.md", newFile: true },
    });
    expect(request?.preview?.ok && request.preview.diff).toContain("+hello");
    expect(pod.pendingPermission).toEqual(request);
    expect(existsSync(path.join(project, "notes.md"))).toBe(false);

    const done = await pod.respond(request?.id ?? "", "allow_once");
    expect(done).toMatchObject({ status: "finished", text: "written" });
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("hello\n");
    expect(pod.pendingPermission).toBeUndefined();
    expect(permissionEvents(bed().events(pod))).toEqual([
      { type: "permission_request", ...request },
      {
        type: "permission_resolved",
        id: request?.id,
        callId: request?.callId,
        tool: "write_file",
        decision: "allow_once",
      },
    ]);

    // Once means once: the next write asks again.
    mock.enqueue(write("more.md", "x\n"), answer("ok"));
    expect(await pod.run("another")).toMatchObject({ status: "paused" });
  });

  it("allow_session lets later calls of that tool run without asking, and only that tool", async () => {
    const { createPod, mock, project, put } = bed();
    put("a.txt", "old\n");
    mock.enqueue(write("one.md", "1\n"), answer("one"), write("two.md", "2\n"), answer("two"));
    const pod = await createPod();

    const first = await pod.run("first");
    expect((await pod.respond(first.permissionRequest?.id ?? "", "allow_session")).status).toBe("finished");
    expect(await pod.run("second")).toMatchObject({ status: "finished", text: "two" });
    expect(readFileSync(path.join(project, "two.md"), "utf8")).toBe("2\n");

    mock.enqueue(
      toolCall("read_file", { path: "a.txt" }),
      toolCall("edit_file", { path: "a.txt", old_string: "old", new_string: "new" }),
      answer("edited"),
    );
    const edit = await pod.run("third");
    expect(edit.permissionRequest).toMatchObject({
      tool: "edit_file",
      preview: { ok: true, diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-old\n+new" },
    });
  });

  it("deny skips the call; the model reads the user's reason as its error result", async () => {
    const { createPod, mock, project, sent } = bed();
    mock.enqueue(write("notes.md", "hello\n"), answer("understood"));
    const pod = await createPod();

    const paused = await pod.run("write a note");
    const done = await pod.respond(paused.permissionRequest?.id ?? "", { deny: "not in this repo" });

    expect(done).toMatchObject({ status: "finished", text: "understood" });
    expect(existsSync(path.join(project, "notes.md"))).toBe(false);
    const result = pod.history.find((item) => item.type === "tool_result");
    expect(result).toMatchObject({
      isError: true,
      content: "[skipped by approval: the user denied this call: not in this repo] write_file was not run.",
    });
    expect(sent(1)).toContain("the user denied this call: not in this repo");
  });

  it("answers only the pending request, once", async () => {
    const { createPod, mock } = bed();
    mock.enqueue(write("n.md", "x"), answer("ok"));
    const pod = await createPod();
    const paused = await pod.run("go");
    await expect(pod.respond("not-an-id", "allow_once")).rejects.toThrow(/no pending permission request/);
    await pod.respond(paused.permissionRequest?.id ?? "", "allow_once");
    await expect(pod.respond(paused.permissionRequest?.id ?? "", "allow_once")).rejects.toThrow(
      /no pending permission request/,
    );
  });

  it("a listener may answer at once; a new run instead drops the request as abandoned", async () => {
    const { createPod, mock, project } = bed();
    mock.enqueue(write("n.md", "x"), answer("ok"), write("m.md", "y"), answer("moved on"));
    const pod = await createPod();

    const answered = new Promise((resolve) => {
      const off = pod.on("permission_request", (request) => {
        off();
        resolve(pod.respond(request.id, "allow_once"));
      });
    });
    expect((await pod.run("auto")).status).toBe("paused");
    expect(await answered).toMatchObject({ status: "finished", text: "ok" });
    expect(existsSync(path.join(project, "n.md"))).toBe(true);

    const paused = await pod.run("write m");
    expect(await pod.run("never mind")).toMatchObject({ status: "finished", text: "moved on" });
    expect(existsSync(path.join(project, "m.md"))).toBe(false);
    expect(permissionEvents(bed().events(pod)).at(-1)).toMatchObject({
      type: "permission_resolved",
      id: paused.permissionRequest?.id,
      decision: "abandoned",
    });
    // The unanswered call got a result, so the history stays valid for the provider.
    const results = pod.history.filter((item) => item.type === "tool_result");
    expect(results.at(-1)).toMatchObject({ isError: true });
  });

  it("asks nothing when the manifest approves no tool (--yes)", async () => {
    const { createPod, mock, project } = bed();
    mock.enqueue(write("notes.md", "hello\n"), answer("written"));
    const pod = await createPod({ tools: { approve: [] } });
    expect(await pod.run("write")).toMatchObject({ status: "finished" });
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("hello\n");
    expect(permissionEvents(bed().events(pod))).toEqual([]);
  });
});
