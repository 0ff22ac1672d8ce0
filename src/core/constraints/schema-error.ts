/**
 * The 400s of the JSON Schema converter: `invalid_schema` for a schema that is not valid
 * (wrong keyword types, a `$ref` that resolves to nothing), `unsupported_schema` for a valid
 * schema using a feature no grammar here can express. Both name the request parameter and
 * the JSON pointer of the offending subschema.
 */
import { InvalidRequestError } from '../domain/errors';

/** Where the converter is: the request parameter and the JSON pointer inside the schema. */
export interface SchemaPlace {
  readonly param: string;
  readonly path: string;
}

/** `Invalid JSON schema in 'response_format' at #/properties/age: 'minimum' must be a number`. */
export function invalidSchema(place: SchemaPlace, what: string): InvalidRequestError {
  return new InvalidRequestError(
    `Invalid JSON schema in '${place.param}' at ${place.path}: ${what}`,
    place.param,
    'invalid_schema',
  );
}

/** `Unsupported JSON schema feature in 'response_format' at #: 'multipleOf' cannot be enforced by a grammar`. */
export function unsupportedSchema(place: SchemaPlace, what: string): InvalidRequestError {
  return new InvalidRequestError(
    `Unsupported JSON schema feature in '${place.param}' at ${place.path}: ${what}`,
    place.param,
    'unsupported_schema',
  );
}

/** The child place `path/key` (JSON-pointer escaped). */
export function childPlace(place: SchemaPlace, ...keys: (string | number)[]): SchemaPlace {
  const suffix = keys.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  return { param: place.param, path: `${place.path}/${suffix}` };
}
