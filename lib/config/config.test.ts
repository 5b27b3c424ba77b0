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

  it('says what a bad URL or number should look like, not just "Invalid URL" or "Invalid input"', () => {
    const message = (env: Record<string, string | undefined>) => {
      try {
        parseConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${JSON.stringify(env)} was accepted`);
    };
    const wantedUrl = 'must be an http:// or https:// URL such as https://pay.example.com';
    for (const bad of ['ftp://x', 'pay.example.com', 'localhost:3000', 'https://']) {
      expect(message({ PUBLIC_BASE_URL: bad }), bad).toContain(`PUBLIC_BASE_URL: ${wantedUrl}`);
      expect(message({ STORE_GATEWAY_URL: bad }), bad).toContain(`STORE_GATEWAY_URL: ${wantedUrl}`);
    }
    expect(message({ PORT: 'eighty' })).toContain('PORT: must be a number');
    expect(message({ DB_POOL_SIZE: '1.5' })).toContain('DB_POOL_SIZE: must be a whole number');
    const both = message({ SANDBOX_BLOCK_SECONDS: 'fast', API_RATE_LIMIT: 'x' });
    expect(both).toContain('SANDBOX_BLOCK_SECONDS: must be a number');
    expect(both).toContain('API_RATE_LIMIT: must be a number');
    // The enumerations already say which values they take.
    expect(message({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL: Invalid option: expected one of "debug"|"info"|"warn"|"error"|"silent"');
    for (const env of [{ PUBLIC_BASE_URL: 'ftp://x' }, { PORT: 'eighty' }, { DB_POOL_SIZE: '1.5' }]) expect(message(env)).not.toMatch(/Invalid (URL|input)/);
    expect(parseConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000', STORE_GATEWAY_URL: 'https://gw.example/' })).toMatchObject({
      publicBaseUrl: 'http://127.0.0.1:3000',
      storeGatewayUrl: 'https://gw.example',
    });
  });

  it('treats empty variables as unset and trims the base URL', () => {
    expect(parseConfig({ DATABASE_URL: '', PUBLIC_BASE_URL: 'https://pay.example/' })).toMatchObject({ databaseUrl: undefined, publicBaseUrl: 'https://pay.example' });
  });
});
