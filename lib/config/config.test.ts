import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './schema';

describe('parseConfig', () => {
  it('has defaults for a bare environment', () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({ port: 3000, host: '127.0.0.1', publicBaseUrl: 'http://localhost:3000', nonceWindowDays: 7, databaseUrl: undefined });
  });

  it('names the bad variable', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ APP_SECRET: 'short' })).toThrow(/APP_SECRET: must be at least 32 characters/);
    expect(() => parseConfig({ PUBLIC_BASE_URL: 'ftp://pay.example' })).toThrow(/PUBLIC_BASE_URL/);
  });

  it('treats empty variables as unset and trims the base URL', () => {
    expect(parseConfig({ DATABASE_URL: '', PUBLIC_BASE_URL: 'https://pay.example/' })).toMatchObject({ databaseUrl: undefined, publicBaseUrl: 'https://pay.example' });
  });
});
