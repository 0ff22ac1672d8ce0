/**
 * Test builds only: a prompt step that blocks the engine's thread for as long as a real one of a
 * large model on a slow machine. The e2e tests set `__inpageTestSlowStepMs = N` in the engine
 * worker's global scope; each prompt step then spins N ms before it reads its tokens, answering
 * no message meanwhile, as a wasm call does. Kept out of production as test-trap.ts is.
 */
export function testSlowStep(): void {
  const ms: unknown = Reflect.get(globalThis, '__inpageTestSlowStepMs');
  if (typeof ms !== 'number') return;
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Blocked, as the engine is inside a long llama_decode.
  }
}
