import { describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../db';
import { chainHealth, reportHealth } from './health';

const of = (network: string) => chainHealth().find((h) => h.network === network && h.mode === 'test');

describe('chain health', () => {
  it('a failing pass marks the network unhealthy until a pass succeeds', () => {
    reportHealth('health-down', 'test', new Error('connect ECONNREFUSED'));
    expect(of('health-down')).toMatchObject({ healthy: false, failures: 1, error: 'connect ECONNREFUSED' });
    reportHealth('health-down', 'test', null);
    expect(of('health-down')).toMatchObject({ healthy: true, failures: 0, error: null });
  });

  it('a pass deferred by our busy database says nothing about the node', () => {
    reportHealth('health-busy', 'test', null);
    reportHealth(
      'health-busy',
      'test',
      new DatabaseBusyError('database pool exhausted (1 connections, 0 idle, 3 waiting)'),
    );
    expect(of('health-busy')).toMatchObject({ healthy: true, failures: 0 });
  });
});
