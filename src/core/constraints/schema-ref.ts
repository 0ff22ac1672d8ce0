/** Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any `#/...` pointer) in the root schema. */
import type { SchemaPlace } from './schema-error';
import { invalidSchema, unsupportedSchema } from './schema-error';

/** The subschema `ref` points to, and a rule name for it (its last pointer segment). */
export function resolveRef(root: unknown, ref: string, place: SchemaPlace): { target: unknown; name: string } {
  if (!ref.startsWith('#'))
    throw unsupportedSchema(place, `'$ref' '${ref}' is not local: only '#/...' references are supported`);
  const segments = ref === '#' ? [] : ref.slice(ref.startsWith('#/') ? 2 : 1).split('/');
  let target: unknown = root;
  for (const raw of segments) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    const next: unknown = typeof target === 'object' && target !== null ? Reflect.get(target, key) : undefined;
    if (next === undefined) throw invalidSchema(place, `'$ref' '${ref}' does not resolve`);
    target = next;
  }
  return {
    target,
    name: segments.length === 0 ? 'root-ref' : decodeURIComponent(segments[segments.length - 1] ?? 'ref'),
  };
}
