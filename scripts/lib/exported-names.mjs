// Exported names declared in more than one folder of lib/ (issue 31: one name per thing). A name
// is counted where it is declared (a function, class, type, interface, enum or variable with
// `export`), not where it is re-exported, so that a folder's index.ts passing on another folder's
// name is not a second thing. `node scripts/lib/exported-names.mjs` prints them; the unit test
// tests/exported-names.test.ts fails on any not in its allow-list.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [full]
      : [];
  });
}

const exported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;

/** The names each file of lib/ declares with `export`. */
function declaredExports(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name &&
      exported(statement)
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}

/** Map of name -> the folders of lib/ that declare it, for names declared in two or more. */
export function sharedExportedNames() {
  const byName = new Map();
  for (const file of sourceFiles(path.join(root, 'lib'))) {
    const folder = path.relative(path.join(root, 'lib'), file).split(path.sep)[0];
    for (const name of declaredExports(file)) {
      const places = byName.get(name) ?? new Map();
      places.set(folder, [...(places.get(folder) ?? []), path.relative(root, file)]);
      byName.set(name, places);
    }
  }
  return new Map(
    [...byName]
      .filter(([, places]) => places.size > 1)
      .map(([name, places]) => [name, [...places.values()].flat().sort()]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  for (const [name, files] of sharedExportedNames()) console.log(`${name}: ${files.join(', ')}`);
}
