export const FONT_PACKAGES: Record<string, string>;
export function missingFontPackages(): string[];
export function ensureFontsInstalled(): void;
