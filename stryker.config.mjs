// `npm run mutate`: mutation testing (StrykerJS, Vitest runner) of the state machines, money
// arithmetic and the API's signature and nonce checks. Prints the mutation score per file and the
// mutants that survived; the HTML report is .tmp/mutation/index.html. Not part of CI: a run takes
// minutes of CPU.
import fs from 'node:fs';
import ts from 'typescript';

/** Whole files (lib/money is its index.ts). */
const FILES = ['lib/orders/lifecycle.ts', 'lib/deposits/lifecycle.ts', 'lib/money/index.ts'];
for (const file of FILES) if (!fs.existsSync(file)) throw new Error(`stryker.config.mjs: ${file} does not exist`);

/**
 * Only these functions: lib/api/route.ts's signature and nonce checks, not the whole wrapper; the
 * nonce store's functions, not its statements' text (a prepared statement's name changes no row).
 */
const FUNCTIONS = [
  { file: 'lib/api/route.ts', functions: ['signatureMatches', 'readNonce', 'validate'] },
  { file: 'lib/api/nonces.ts', functions: ['consumeNonce', 'pruneNonces'] },
];

/** `file:line:column-line:column` of each named top-level function, found anew at every run so that edits above them do not shift the range. */
function functionRanges(file, names) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const ranges = names.map((name) => {
    const declaration = source.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === name);
    if (!declaration) throw new Error(`stryker.config.mjs: ${file} has no function ${name}`);
    const position = (offset) => {
      const { line, character } = source.getLineAndCharacterOfPosition(offset);
      return `${line + 1}:${character}`;
    };
    return `${file}:${position(declaration.getStart())}-${position(declaration.getEnd())}`;
  });
  return ranges;
}

export default {
  testRunner: 'vitest',
  // Vitest's `related` (the default) runs a mutant against the test files that import its module
  // only: a mutant of the state machines' module-level tables then runs their unit tests, not the
  // ones that open a database.
  vitest: { configFile: 'stryker.vitest.config.ts' },
  mutate: [...FILES, ...FUNCTIONS.flatMap(({ file, functions }) => functionRanges(file, functions))],
  coverageAnalysis: 'perTest',
  checkers: [],
  concurrency: 1, // one test runner: the machine's two cores are shared
  reporters: ['clear-text', 'html', 'json'],
  clearTextReporter: {
    allowColor: false,
    reportTests: false,
    logTests: false,
    maxTestsToLog: 0,
    reportScoreTable: true,
    reportMutants: true,
  },
  htmlReporter: { fileName: '.tmp/mutation/index.html' },
  jsonReporter: { fileName: '.tmp/mutation/mutation.json' },
  tempDirName: '.tmp/stryker',
  ignorePatterns: ['.next', '.tmp', 'data', 'e2e', 'bench'],
  thresholds: { high: 90, low: 80, break: null },
  timeoutMS: 30_000,
};
