import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './schema';

describe('parseConfig', () => {
  it('has defaults for a bare environment', () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({ port: 3000, host: '127.0.0.1', publicBaseUrl: 'http://127.0.0.1:3000', nonceWindowDays: 7, databaseUrl: undefined });
    expect(cfg).toMatchObject({ apiBodyTimeoutMs: 10_000, apiSlowBodiesPerClient: 16 });
  });

  it('defaults the public URL to the address the server prints, reachable from this machine', () => {
    expect(parseConfig({ PORT: '4000' })).toMatchObject({ publicBaseUrl: 'http://127.0.0.1:4000', localBaseUrl: 'http://127.0.0.1:4000' });
    expect(parseConfig({ HOST: '0.0.0.0' })).toMatchObject({ publicBaseUrl: 'http://127.0.0.1:3000' });
    expect(parseConfig({ HOST: '::' })).toMatchObject({ publicBaseUrl: 'http://[::1]:3000' });
    expect(parseConfig({ HOST: 'gateway.lan' })).toMatchObject({ publicBaseUrl: 'http://gateway.lan:3000' });
    expect(parseConfig({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://pay.example' })).toMatchObject({ publicBaseUrl: 'https://pay.example', localBaseUrl: 'http://127.0.0.1:3000' });
  });

  it('bounds the time and the number of slow request bodies', () => {
    expect(parseConfig({ API_BODY_TIMEOUT_SECONDS: '3', API_SLOW_BODIES_PER_CLIENT: '4' })).toMatchObject({ apiBodyTimeoutMs: 3000, apiSlowBodiesPerClient: 4 });
    expect(() => parseConfig({ API_BODY_TIMEOUT_SECONDS: '31' })).toThrow(/API_BODY_TIMEOUT_SECONDS/);
    expect(() => parseConfig({ API_BODY_TIMEOUT_SECONDS: '0' })).toThrow(/API_BODY_TIMEOUT_SECONDS/);
    expect(() => parseConfig({ API_SLOW_BODIES_PER_CLIENT: 'many' })).toThrow(/API_SLOW_BODIES_PER_CLIENT/);
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
