/**
 * Test builds only: a trigger the e2e tests arm by setting a global count in the engine worker
 * (`__inpageTest… = N`). Each call counts one down; the call that reaches zero clears the global
 * and returns true, once.
 */
export function countdownDone(name: string): boolean {
  const left: unknown = Reflect.get(globalThis, name);
  if (typeof left !== 'number') return false;
  if (left > 1) {
    Reflect.set(globalThis, name, left - 1);
    return false;
  }
  Reflect.deleteProperty(globalThis, name);
  return true;
}
