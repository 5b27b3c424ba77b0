export function currentBundle(root: string, manifest: string): string | undefined;
export function recordBundle(root: string, manifest: string, bundle: string, inputs: string[], started: number): void;
