/**
 * How a CLI reaches the database: through the running server's control endpoint when a server
 * holds the embedded database (PGlite allows one process per data directory), otherwise by
 * opening it itself (PostgreSQL, or the embedded database while no server runs).
 */
import type { parseArgs, ParseArgsOptionsConfig } from 'node:util';
import { z } from 'zod';
import { adminCommand, runAdminCommand, type AdminCommand } from '../lib/admin';
import { config } from '../lib/config';
import { claimDataDir, describeOwner, getDatabase } from '../lib/db';
import { readControlToken } from '../lib/server';
import { asksForHelp, parseArguments, UsageError } from './lib/command-line';

export async function runCommand(command: AdminCommand): Promise<unknown> {
  const cfg = config();
  const parsed = adminCommand.safeParse(command);
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'command'}: ${i.message}`).join('; '));
  // Takes the embedded database's lock unless a live process holds it; then that process serves the command.
  const owner = cfg.databaseUrl ? undefined : claimDataDir(cfg.dataDir);
  if (owner) {
    if (!owner.controlUrl)
      throw new Error(
        `The data directory ${cfg.dataDir} is in use by ${describeOwner(owner)} (not a server); try again when it ends.`,
      );
    const response = await fetch(owner.controlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${readControlToken(cfg.dataDir) ?? ''}` },
      body: JSON.stringify(command),
    }).catch((error: unknown) => {
      throw new Error(
        `The server (${describeOwner(owner)}) holds the database but does not answer at ${owner.controlUrl}: ${(error as Error).message}. Is it still starting?`,
      );
    });
    const body = await answerOf(response);
    if (!body)
      throw new Error(
        `The server failed to run the command (HTTP ${response.status}, no reason given); its log says why.`,
      );
    if (!response.ok) throw new Error(`The server refused the command: ${body.error ?? `HTTP ${response.status}`}`);
    return body.result;
  }
  const db = await getDatabase();
  try {
    return await runAdminCommand(db, command);
  } finally {
    await db.close();
  }
}

/** What app/internal/cli answers: the command's result, or why it was refused. */
const controlAnswer = z.object({ result: z.unknown().optional(), error: z.string().optional() });

/** The control endpoint's JSON answer; undefined for anything else (a crash inside the server answers no JSON). */
async function answerOf(response: Response): Promise<z.infer<typeof controlAnswer> | undefined> {
  try {
    const parsed = controlAnswer.safeParse(JSON.parse(await response.text()));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/**
 * What a CLI's arguments (after `npm run <cli> --`) ask for, as `parse` reads them: `--help` or
 * `-h` prints the usage and exits 0, and a UsageError prints its message (what was wrong and the
 * usage) and exits 2.
 */
export function commandLine<R>(usage: string, parse: (args: string[]) => R): R {
  const args = process.argv.slice(2);
  if (asksForHelp(args)) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parse(args);
  } catch (error) {
    if (error instanceof UsageError) fail(error.message);
    throw error;
  }
}

/**
 * A CLI's arguments parsed by node:util's parseArgs with positionals allowed (commandLine): an
 * unknown or malformed option prints what was wrong and the usage (exit 2) rather than parseArgs's
 * stack trace.
 */
export function parseCommandLine<T extends ParseArgsOptionsConfig>(
  options: T,
  usage: string,
): ReturnType<typeof parseArgs<{ allowPositionals: true; options: T }>> {
  return commandLine(usage, (args) => parseArguments(args, options, usage));
}
