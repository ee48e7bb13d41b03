/**
 * Recall at the turn boundary through a real Pod (the mock provider over HTTP, a real project): a
 * later message naming something an earlier stored output held is sent with the lines naming it.
 */
import { describe, expect, it } from "vitest";
import { answer, toolCall, usePodTestbed } from "./support/pod-test-kit.js";

const bed = usePodTestbed();

/** 600 lines that all mention leases, one of them the constant a later turn asks about. */
const LEASE_SOURCE = Array.from({ length: 600 }, (_, i) =>
  i === 299
    ? "export const LEASE_GRACE_MS = 4711; // lease grace"
    : `  lease.renew(${i}); // lease step ${i}`,
).join("\n");

describe("the Pod's recall", () => {
  it("sends a later turn the stored grep lines its message names, so the model needs no inspect", async () => {
    const { put, createPod, mock, sent } = bed();
    put("src/lease.ts", `${LEASE_SOURCE}\n`);
    mock.enqueue(
      toolCall("grep", { pattern: "lease", output_mode: "content", head_limit: 1000 }),
      answer("Leases are renewed step by step."),
      answer("LEASE_GRACE_MS is 4711."),
    );
    const pod = await createPod();

    await pod.run("How are leases handled?");
    // The grep output was stored: its summary did not show the constant.
    expect(sent(1)).toContain("[blob:");
    expect(sent(1)).not.toContain("LEASE_GRACE_MS = 4711");

    await pod.run("What is LEASE_GRACE_MS set to?");
    expect(sent(2)).toContain("[recall] earlier tool outputs naming LEASE_GRACE_MS");
    expect(sent(2)).toContain("export const LEASE_GRACE_MS = 4711; // lease grace");
    expect(pod.history.map((item) => (item.type === "message" ? item.role : item.type))).toEqual([
      "user",
      "tool_call",
      "tool_result",
      "assistant",
      "user",
      "system",
      "assistant",
    ]);
    await pod.close();
  });
});
