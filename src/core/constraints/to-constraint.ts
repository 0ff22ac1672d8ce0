/**
 * `toConstraint(fields)`: reads a request's output-constraint fields (already JSON-parsed)
 * and returns the one grammar they ask for, or null. Two active constraints are a 400
 * (`conflicting_constraints`) naming the second in reading order; `response_format:
 * {type:'text'}` is not a constraint. Each field's own errors are 400s naming that field.
 *
 * @example
 * toConstraint({ guided_choice: ['yes', 'no'] }); // { gbnf: 'root ::= "yes" | "no"\n', kind: 'choice', ... }
 */
import type { Constraint } from './constraint';
import { InvalidRequestError } from '../domain/errors';
import { CONSTRAINT_FIELDS } from './constraint-fields';

/** The request body, or the part of it that may hold constraint fields. */
export type ConstraintRequest = Readonly<Record<string, unknown>>;

function fieldValue(request: ConstraintRequest, param: string): unknown {
  if (param !== 'text.format') return request[param];
  const text = request['text'];
  return typeof text === 'object' && text !== null ? Reflect.get(text, 'format') : undefined;
}

function isActive(param: string, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if ((param === 'response_format' || param === 'text.format') && typeof value === 'object')
    return Reflect.get(value, 'type') !== 'text';
  if (param === 'structured_outputs' && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).some(
      ([key, v]) => v !== undefined && v !== null && !(key === 'json_object' && v === false),
    );
  }
  return true;
}

export function toConstraint(request: ConstraintRequest): Constraint {
  const active = CONSTRAINT_FIELDS.filter((field) => isActive(field.param, fieldValue(request, field.param)));
  const [first, second] = active;
  if (first && second) {
    throw new InvalidRequestError(
      `Only one output constraint is allowed per request: '${second.param}' cannot be combined with '${first.param}'`,
      second.param,
      'conflicting_constraints',
    );
  }
  for (const field of CONSTRAINT_FIELDS) {
    const value = fieldValue(request, field.param);
    if (value !== undefined && value !== null) {
      const constraint = field.read(value, field.param);
      if (constraint) return constraint;
    }
  }
  return null;
}
