import { describe, expect, it } from "vitest";
import {
  completed,
  created,
  decode,
  message,
  RESPONSE,
  type Wire,
} from "../../../../test/support/openai-responses-kit.js";
import type { Event } from "../../event.js";
import { createOpenaiResponsesDecoder } from "./decoder.js";

describe("openai-responses decoder failures", () => {
  it("reports an error event mid-stream with the whole event as raw, aborting the open block", () => {
    const error = {
      type: "error",
      sequence_number: 5,
      error: { type: "tokens", code: "rate_limit_exceeded", message: "Rate limit reached", param: null },
    };
    const { events, response } = decode([created, ...message("msg_1", 0, "Partial").slice(0, 3), error]);
    expect(events.some((e) => e.type === "block_abort")).toBe(true);
    const r = response();
    expect(r.status).toBe("failed");
    expect(r.stopReason).toBe("error");
    expect(r.rawStopReason).toBeNull();
    expect(r.error).toEqual({
      kind: "rate_limit",
      message: "Rate limit reached",
      code: "rate_limit_exceeded",
      raw: error,
    });
    expect(r.text).toBe("Par");
  });

  it("keeps the error event's error when response.failed follows, with status failed as raw reason", () => {
    const error = { type: "error", code: "server_error", message: "Something broke", param: null };
    const { events, response } = decode([
      created,
      error,
      {
        type: "response.failed",
        response: { ...RESPONSE, status: "failed", error: { code: "x", message: "y" } },
      },
    ]);
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
    const r = response();
    expect(r.error).toMatchObject({
      kind: "server",
      message: "Something broke",
      code: "server_error",
      raw: error,
    });
    expect(r.rawStopReason).toBe("failed");
    expect(r.stopReason).toBe("error");
  });

  it("reports response.failed's own error when no error event came", () => {
    const failure = { code: "rate_limit_exceeded", message: "Rate limit reached for requests" };
    const r = decode([
      created,
      ...message("msg_1", 0, "Some text").slice(0, 3),
      { type: "response.failed", response: { ...RESPONSE, status: "failed", error: failure, usage: null } },
    ]).response();
    expect(r.status).toBe("failed");
    expect(r.rawStopReason).toBe("failed");
    expect(r.error).toEqual({
      kind: "rate_limit",
      message: failure.message,
      code: "rate_limit_exceeded",
      raw: failure,
    });
  });

  it("fails the stream on invalid JSON and ignores what follows", () => {
    const { events, decoder, response } = decode([
      created,
      '{"type":"response.output_text.delta", oops',
      completed(),
    ]);
    expect(decoder.done).toBe(true);
    const r = response();
    expect(r.status).toBe("failed");
    expect(r.error?.kind).toBe("stream");
    expect(r.error?.message).toContain("invalid JSON");
    expect(r.error?.message).toContain('{"type":"response.output_text.delta", oops');
    expect(r.error?.raw).toBe('{"type":"response.output_text.delta", oops');
    expect(events.filter((e) => e.type === "usage")).toEqual([]);
  });

  it("fails the stream on an event of the wrong shape", () => {
    const bad: Wire = {
      type: "response.output_text.delta",
      item_id: "m",
      output_index: 0,
      content_index: 0,
      delta: 5,
    };
    const r = decode([created, bad]).response();
    expect(r.error).toMatchObject({ kind: "stream" });
    expect(r.error?.message).toContain("delta is not a string");
    const noObject = decode([created, "[1,2]"]).response();
    expect(noObject.error?.message).toContain("not a JSON object");
    const noResponse = decode([{ type: "response.completed" }]).response();
    expect(noResponse.error?.message).toContain("no response object");
  });

  it("reports a stream that ends without a terminal event as truncated", () => {
    const r = decode([created, ...message("msg_1", 0, "Half an ans").slice(0, 3)]).response();
    expect(r.status).toBe("failed");
    expect(r.error).toEqual({ kind: "stream", message: "the stream ended before the response was complete" });
    expect(r.text).toBe("Hal");
  });

  it("accepts data: [DONE] after the end and treats it as the end of the body before it", () => {
    const after = decode([created, completed(), "[DONE]"]).response();
    expect(after.status).toBe("completed");
    const before = decode([created, "[DONE]"], { end: false });
    expect(before.decoder.done).toBe(true);
    expect(before.response().error?.message).toBe("the stream ended before the response was complete");
  });

  it("ignores frames after the terminal event", () => {
    const { events, decoder } = decode([created, completed(), ...message("msg_9", 0, "late")], {
      end: false,
    });
    expect(decoder.done).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "status", status: "completed" });
    expect(events.some((e) => e.type === "block_start")).toBe(false);
  });

  it("passes a transport failure on; an abort ends as cancelled", () => {
    const events: Event[] = [];
    const decoder = createOpenaiResponsesDecoder((e) => events.push(e));
    decoder.push({ data: JSON.stringify(created) });
    decoder.fail({ kind: "aborted", message: "the request was aborted" });
    expect(decoder.done).toBe(true);
    expect(events.at(-1)).toEqual({
      type: "status",
      status: "cancelled",
      stopReason: "error",
      rawStopReason: null,
    });
  });
});
