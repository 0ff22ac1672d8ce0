export function sha256(bytes: Uint8Array | string): string;
export function engineInputs(repo: string): Record<string, string>;
