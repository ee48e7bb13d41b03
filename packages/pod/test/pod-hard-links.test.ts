/** `[scope] hard_links` reaches the Pod's ScopedFs: a hard-linked file is attached only when it is set. */
import { linkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { answer, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

function hardLinkedFile(): void {
  const { base, project } = bed();
  const outside = path.join(base, "outside-secret.txt");
  writeFileSync(outside, "OUTSIDE-SECRET\n");
  linkSync(outside, path.join(project, "innocent.txt"));
}

describe("a Pod and hard links", () => {
  it("does not attach a hard-linked file by default", async () => {
    hardLinkedFile();
    const { createPod, mock, sent } = bed();
    mock.enqueue(answer("ok"));
    const pod = await createPod();
    await pod.run("look at @innocent.txt");
    expect(sent(0)).not.toContain("OUTSIDE-SECRET");
  });

  it("attaches it when the manifest sets [scope] hard_links = true", async () => {
    hardLinkedFile();
    const { createPod, mock, sent } = bed();
    mock.enqueue(answer("ok"));
    const pod = await createPod({ scope: { hard_links: true } });
    await pod.run("look at @innocent.txt");
    expect(sent(0)).toContain("OUTSIDE-SECRET");
  });
});
