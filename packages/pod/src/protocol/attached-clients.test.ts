/**
 * What a served Pod tells its clients about itself and about each other, over a real socket with
 * a real Pod: the warnings it started with, in every `hello`, and how many clients that can answer
 * a permission request are connected, so that one waiting for an answer knows whether anyone can.
 */
import { describe, expect, it } from "vitest";
import { usePodTestbed } from "../../test/support/pod-test-kit.js";
import { recordEvents, until, useServedPods } from "../../test/support/protocol-test-kit.js";

const bed = usePodTestbed();
const serve = useServedPods(bed);

describe("hello", () => {
  it("tells every client what the Pod warned about when it started", async () => {
    const { client, pod } = await serve({ manifest: { shell: { sandbox: false } } });
    const noSandbox = expect.stringMatching(/^no sandbox for commands: the manifest turned it off/);
    expect(pod.manifest.warnings).toEqual([noSandbox]);
    const first = await client("first");
    const later = await client("later");
    expect(first.hello.warnings).toEqual([noSandbox]);
    expect(later.hello.warnings).toEqual([noSandbox]);
  });

  it("has no warnings from a Pod that started without any", async () => {
    const { client } = await serve();
    expect((await client("alice")).hello.warnings).toEqual([]);
  });
});

describe("clients that answer approvals", () => {
  it("are counted in status and announced to the others as they come and go", async () => {
    const { client } = await serve();
    const script = await client("a script");
    const seenByScript = recordEvents(script);
    expect(script.hello.status).toMatchObject({ clients: 1, approvers: 0 });

    const terminal = await client("yoake", { answersApprovals: true });
    expect(terminal.hello.status).toMatchObject({ clients: 2, approvers: 1 });
    await until(() => seenByScript.length === 1, "the script to hear of the terminal");
    expect(seenByScript).toEqual([{ event: "approvers", approvers: 1 }]);
    expect(await script.status()).toMatchObject({ clients: 2, approvers: 1 });

    // A client that cannot answer comes and goes unannounced: the count did not change.
    const other = await client("yoake -p");
    other.close();
    terminal.close();
    await until(() => seenByScript.length === 2, "the script to hear the terminal leave");
    expect(seenByScript[1]).toEqual({ event: "approvers", approvers: 0 });
    expect(await script.status()).toMatchObject({ clients: 1, approvers: 0 });
  });
});
