/** Names a JSON value's type the way OpenAI's error messages do ("a string", "an array"). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  switch (type) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a decimal';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return type;
  }
}
