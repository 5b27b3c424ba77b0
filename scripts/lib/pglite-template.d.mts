export const TEMPLATE_ENV: string;
export function ensurePgliteTemplate(root: string): Promise<string>;
