/** Module resolution hook for `typescript-6.mjs`: `typescript` -> `typescript-6`. */
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier === 'typescript' ? 'typescript-6' : specifier, context);
}
