/**
 * The pure half of a CLI's argument parsing (scripts/cli-runtime.ts prints and exits): what a
 * command line asks for, or the mistake in it, so that the mistakes can be tested in-process
 * rather than with a Node process each (docs/decisions/128).
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** Whether a command line asks for the usage (`--help` or `-h` anywhere): printed on standard output, exit 0. */
export function asksForHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** A mistake on the command line: its message (what was wrong, then the usage) is printed and the CLI exits 2. */
export class UsageError extends Error {}

/**
 * `args` parsed by node:util's parseArgs with positionals allowed; an unknown or malformed option
 * is a UsageError saying what was wrong, followed by `usage` (not parseArgs's stack trace).
 */
export function parseArguments<T extends ParseArgsOptionsConfig>(
  args: string[],
  options: T,
  usage: string,
): ReturnType<typeof parseArgs<{ allowPositionals: true; options: T }>> {
  try {
    return parseArgs({ args, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
}
