export function sha256(bytes: Uint8Array | string): string;
export function engineInputs(repo: string): Record<string, string>;
export function buildDigest(manifest: {
  llamaCpp: unknown;
  dawn: unknown;
  toolchain: unknown;
  variants: string[];
  inputs: Record<string, string>;
}): string;
