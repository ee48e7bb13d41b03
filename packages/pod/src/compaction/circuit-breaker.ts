/** What one failure did to the breaker. */
export interface BreakerFailure {
  /** Failures in a row, this one included. */
  failuresInARow: number;
  /** This failure turned automatic compaction off. */
  trippedNow: boolean;
}

/**
 * Turns automatic compaction off after `maxFailures` failures in a row, so a provider that keeps
 * refusing the summary request does not cost a failed request before every turn. A success (a
 * manual compaction included) closes it again.
 */
export class CompactionBreaker {
  private failures = 0;

  constructor(private readonly maxFailures: number) {}

  /** Whether automatic compaction is off. */
  get open(): boolean {
    return this.maxFailures > 0 && this.failures >= this.maxFailures;
  }

  get failuresInARow(): number {
    return this.failures;
  }

  recordFailure(): BreakerFailure {
    const wasOpen = this.open;
    this.failures += 1;
    return { failuresInARow: this.failures, trippedNow: !wasOpen && this.open };
  }

  recordSuccess(): void {
    this.failures = 0;
  }
}
