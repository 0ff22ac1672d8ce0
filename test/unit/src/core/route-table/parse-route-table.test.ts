import { describe, expect, it } from 'vitest';
import { parseRouteTable, RouteTableError } from '#core/route-table/parse-route-table';
import { hasRemoteTarget } from '#core/route-table/route-info';

const good = {
  upstreams: {
    srv: { baseURL: 'http://127.0.0.1:8080/v1', model: 'qwen3-4b', headers: { authorization: 'Bearer sk-secret' } },
  },
  routes: { 'inpage-test-qwen3': { targets: ['device', 'srv'] } },
};

const rejects = (table: unknown) => {
  try {
    parseRouteTable(table);
  } catch (error) {
    expect(error).toBeInstanceOf(RouteTableError);
    return error instanceof Error ? error.message : '';
  }
  throw new Error('accepted');
};

describe('parseRouteTable', () => {
  it('accepts the issue contract example', () => {
    expect(parseRouteTable(good)).toEqual(good);
    expect(hasRemoteTarget(parseRouteTable(good))).toBe(true);
    expect(hasRemoteTarget(parseRouteTable({ routes: { a: { targets: ['device'] } } }))).toBe(false);
  });

  it('names the path of a bad field', () => {
    expect(rejects({ routes: { a: { targets: [] } } })).toMatch(/'routes\.a\.targets'.*at least one target/);
    expect(rejects({ routes: { a: { targets: ['device'], balance: 'random' } } })).toMatch(/'routes\.a\.balance'/);
    expect(rejects({ upstreams: { s: { baseURL: 'ftp://x', model: 'm' } }, routes: {} })).toMatch(
      /'upstreams\.s\.baseURL'.*http\(s\)/,
    );
    expect(rejects({ routes: {}, extra: 1 })).toMatch(/'extra'/);
    expect(rejects(null)).toMatch(/Invalid route table/);
  });

  it('rejects a target that names no upstream, a duplicate, and an upstream called device', () => {
    expect(rejects({ routes: { a: { targets: ['device', 'nope'] } } })).toMatch(
      /'routes\.a\.targets\[1\]': no upstream is named 'nope' \(known: device\)/,
    );
    expect(rejects({ routes: { a: { targets: ['device', 'device'] } } })).toMatch(/listed twice/);
    expect(rejects({ upstreams: { device: { baseURL: 'http://x/v1', model: 'm' } }, routes: {} })).toMatch(/reserved/);
  });

  it('never quotes a header value or key', () => {
    const message = rejects({
      upstreams: { s: { baseURL: 'http://x/v1', model: 'm', headers: { authorization: 42 } } },
      routes: {},
    });
    expect(message).toMatch(/'upstreams\.s\.headers\.authorization'/);
    expect(message).not.toMatch(/42/);
    expect(
      rejects({ upstreams: { s: { baseURL: 'http://x/v1', model: 'm', apiKey: 1234567 } }, routes: {} }),
    ).not.toMatch(/1234567/);
  });
});
