import 'server-only';
// lib/config never logs (a bad variable is a ConfigError its caller reports), so this import makes
// no cycle, and LOG_LEVEL is read like every other variable: parsed once per process.
import { config } from '../config';

/**
 * Structured logs: one JSON object per line on stdout. Callers pass fields, never request bodies
 * or headers, so secrets cannot reach the log by accident; `redact` covers the fields that
 * could still carry one.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const SECRET_FIELD = /secret|private|signature|password|token|authorization/i;

function threshold(): number {
  return ORDER[config().logLevel];
}

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = SECRET_FIELD.test(key) ? '[redacted]' : value;
  return out;
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...redact(fields) }, (_k, v) =>
    typeof v === 'bigint' ? v.toString() : v instanceof Error ? { name: v.name, message: v.message } : v,
  );
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};
