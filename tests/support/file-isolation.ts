/**
 * Vitest set-up of the database projects whose files share a process (vitest.config.ts, decision
 * 078), after test-env.ts: Vitest runs it again before each test file; the state the file starts
 * from is put back after its last test (support/process-state.ts). Registered first, this afterAll
 * runs after the file's own (which close its databases and servers).
 */
import { afterAll } from 'vitest';
import { recordProcessState } from './process-state';

afterAll(recordProcessState());
