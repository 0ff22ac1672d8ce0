/** How one request ended, as the engine saw it. */
export interface RequestRecord {
  model: string;
  outcome: 'completed' | 'aborted' | 'failed';
  /** Why it was aborted (client cancel, SW silence, ...). */
  reason?: string;
  /** Prompt tokens of the prompts whose first choice ended (0 for a request aborted in its first choice). */
  promptTokens: number;
  /** Generated tokens, including those of a choice cut short by the abort. */
  completionTokens: number;
}

const SIZE = 32;

/** The last few requests' outcomes (newest last): for the playground and for tests. */
export class RequestLog {
  private readonly records: RequestRecord[] = [];

  add(record: RequestRecord): void {
    this.records.push(record);
    if (this.records.length > SIZE) this.records.shift();
  }

  list(): RequestRecord[] {
    return this.records.map((record) => ({ ...record }));
  }
}
