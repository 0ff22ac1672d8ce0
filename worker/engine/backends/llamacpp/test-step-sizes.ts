/**
 * Test builds only: the number of tokens each batched decode step of the slots held
 * (slot-steps.ts), appended to `__inpageTestStepSizes` in the engine worker's global scope when
 * a test has set it to an array. Concurrent streams that each wait their turn instead of sharing
 * a step show here as steps of one token. Kept out of production as test-trap.ts is.
 */
export function recordStepSize(tokens: number): void {
  const sizes: unknown = Reflect.get(globalThis, '__inpageTestStepSizes');
  if (Array.isArray(sizes)) sizes.push(tokens);
}
