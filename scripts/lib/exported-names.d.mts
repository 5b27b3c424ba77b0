// Types of scripts/lib/exported-names.mjs for its TypeScript test.
export function sharedExportedNames(): Map<string, string[]>;
