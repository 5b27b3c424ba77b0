export const root: string;
export const nextBin: string;
export function buildIsCurrent(): boolean;
export function ensureBuild(): Promise<void>;
