import type { RequestRecord } from '#core/protocol/engine-api';

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
