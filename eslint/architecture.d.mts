// Types of eslint/architecture.mjs for its TypeScript test.
import type { Rule } from 'eslint';

export const root: string;
export const LIB_LAYERS: Record<'shared' | 'infra' | 'domain' | 'edge' | 'process', string[]>;
export const EXTRA_ENTRY_POINTS: Record<string, string>;
declare const plugin: { rules: { imports: Rule.RuleModule; 'test-databases': Rule.RuleModule } };
export default plugin;
