import 'server-only';
import { peekProcessSlot, setProcessSlot } from '../process';

/**
 * Structured logs: one JSON object per line on stdout. Callers pass fields, never request bodies
 * or headers, so secrets cannot reach the log by accident; `redact` covers the fields that
 * could still carry one.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
export type LogLevel = Level | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const SECRET_FIELD = /secret|private|signature|password|token|authorization/i;

/**
 * LOG_LEVEL, handed down by lib/config when it parses the environment: lib/log is below lib/config
 * (everything may log; the architecture's arrows point to lib/log), so it cannot ask. Process-wide
 * like the configuration: a bundle whose lib/config finds the configuration parsed already hands
 * nothing to its own copy of lib/log. Until the configuration is parsed (start-up parses it before
 * anything logs), the default, info.
 */
export function setLogLevel(level: LogLevel): void {
  setProcessSlot('logLevel', level);
}

function threshold(): number {
  return ORDER[peekProcessSlot<LogLevel>('logLevel') ?? 'info'];
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
