/**
 * Validates a route table (`startInpage({ routes })`, `data-routes`, `&routes=`): its schema, then
 * what a schema cannot say (every target names `device` or a configured upstream, once per
 * route; no upstream is called `device`). A bad table is one clear error naming where it is wrong,
 * at start, never at the first request. Key values never appear in the message.
 */
import * as v from 'valibot';
import { DEVICE_TARGET, routeTableSchema, type RouteTable } from './route-table-schema';

/** A route table that does not validate: `message` names the path (`routes.x.targets[1]`) and why. */
export class RouteTableError extends Error {
  override name = 'RouteTableError';
  readonly code = 'invalid_route_table';
}

export function parseRouteTable(value: unknown): RouteTable {
  const parsed = v.safeParse(routeTableSchema, value, { abortEarly: true });
  if (!parsed.success) {
    const [issue] = parsed.issues;
    const at = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    // valibot's message may quote the received value: never for a header or key.
    const secret = /(^|\.)(headers|apiKey)(\.|$)/.test(at);
    const why = secret ? `is not valid (${issue.expected ?? 'wrong type'})` : issue.message;
    throw new RouteTableError(`Invalid route table${at ? ` at '${at}'` : ''}: ${why}.`);
  }
  const table = parsed.output;
  const upstreams = table.upstreams ?? {};
  if (Object.hasOwn(upstreams, DEVICE_TARGET))
    throw new RouteTableError(
      `Invalid route table at 'upstreams.${DEVICE_TARGET}': '${DEVICE_TARGET}' is reserved for the in-page engine.`,
    );
  for (const [id, route] of Object.entries(table.routes)) {
    route.targets.forEach((target, index) => {
      const at = `routes.${id}.targets[${index}]`;
      if (target !== DEVICE_TARGET && !Object.hasOwn(upstreams, target)) {
        const known = [DEVICE_TARGET, ...Object.keys(upstreams)].join(', ');
        throw new RouteTableError(
          `Invalid route table at '${at}': no upstream is named '${target}' (known: ${known}).`,
        );
      }
      if (route.targets.indexOf(target) !== index)
        throw new RouteTableError(`Invalid route table at '${at}': '${target}' is listed twice.`);
    });
  }
  return table;
}
