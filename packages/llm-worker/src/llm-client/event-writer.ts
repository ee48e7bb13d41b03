import type {
  BlockStartEvent,
  BlockType,
  Delta,
  ErrorInfo,
  Event,
  ProviderData,
  StopReason,
  UsageEvent,
} from "./event.js";

/** A block start as a decoder describes it; the writer adds `type` and `index`. */
export type BlockOpening = BlockStartEvent extends infer E
  ? E extends BlockStartEvent
    ? Omit<E, "type" | "index">
    : never
  : never;

/**
 * Holds the stream contract (see `event.ts`) for every decoder, so that no scheme has to: one block
 * open at a time with increasing indices, `started` first, exactly one final status last, an open
 * block aborted on failure, and nothing emitted after the end.
 */
export class EventWriter {
  private nextIndex = 0;
  private open: { index: number; blockType: BlockType } | undefined;
  private startedSent = false;
  private finished = false;

  constructor(private readonly emit: (event: Event) => void) {}

  get isFinished(): boolean {
    return this.finished;
  }

  /** The type of the open block, if any. */
  get openBlockType(): BlockType | undefined {
    return this.open?.blockType;
  }

  started(responseId?: string, model?: string): void {
    if (this.startedSent || this.finished) return;
    this.startedSent = true;
    const event: Event = { type: "status", status: "started" };
    if (responseId !== undefined) event.responseId = responseId;
    if (model !== undefined) event.model = model;
    this.emit(event);
  }

  /** Opens a block, closing the open one first. Returns the new block's index. */
  openBlock(opening: BlockOpening): number {
    this.started();
    if (this.open) this.closeBlock();
    const index = this.nextIndex++;
    this.open = { index, blockType: opening.blockType };
    this.emit({ type: "block_start", index, ...opening } as BlockStartEvent);
    return index;
  }

  /** A delta for the open block. A delta with no open block is a decoder bug, so it throws. */
  delta(delta: Delta): void {
    if (!this.open) throw new Error(`delta ${delta.kind} with no open block`);
    this.emit({ type: "block_delta", index: this.open.index, delta });
  }

  closeBlock(providerData?: ProviderData, stopReason?: StopReason): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.emit({
      type: "block_stop",
      index: open.index,
      blockType: open.blockType,
      ...(stopReason !== undefined && { stopReason }),
      ...(providerData !== undefined && { providerData }),
    });
  }

  usage(usage: Omit<UsageEvent, "type">): void {
    if (this.finished) return;
    this.started();
    this.emit({ type: "usage", ...usage });
  }

  ping(): void {
    if (!this.finished) this.emit({ type: "ping" });
  }

  /** An error event that does not end the stream by itself (the provider may still send a status). */
  error(info: ErrorInfo): void {
    if (this.finished) return;
    this.started();
    this.abortOpenBlock(info.message);
    this.emit({ type: "error", ...info });
  }

  /** Normal end: closes the open block and sends the final status. */
  finish(
    stopReason: StopReason,
    rawStopReason: string | number | null,
    extra?: { incompleteDetails?: unknown },
  ): void {
    if (this.finished) return;
    this.started();
    this.closeBlock();
    this.finished = true;
    this.emit({
      type: "status",
      status: stopReason === "error" ? "failed" : "completed",
      stopReason,
      rawStopReason,
      ...(extra?.incompleteDetails !== undefined && { incompleteDetails: extra.incompleteDetails }),
    });
  }

  /**
   * Failure end: aborts the open block, reports the error (unless `alreadyReported`) and sends the
   * final status: `cancelled` for an abort, `failed` otherwise.
   */
  fail(info: ErrorInfo, rawStopReason: string | number | null = null, alreadyReported = false): void {
    if (this.finished) return;
    if (!alreadyReported) this.error(info);
    this.abortOpenBlock(info.message);
    this.finished = true;
    this.emit({
      type: "status",
      status: info.kind === "aborted" ? "cancelled" : "failed",
      stopReason: "error",
      rawStopReason,
    });
  }

  private abortOpenBlock(reason: string): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.emit({ type: "block_abort", index: open.index, blockType: open.blockType, reason });
  }
}
