// When scripts/cli.mjs may start a CLI's bundle as it is, without building it again: the bundle's
// manifest (.tmp/cli/<name>.json) records the files it was built from with their sizes and times,
// and any difference, a missing file or a moved checkout means a new build (decision 024).
import fs from 'node:fs';
import path from 'node:path';

/** Each of `files` (relative to `root`) with its size and modification time, or 'missing'. */
function fingerprint(root, files) {
  return Object.fromEntries(
    files.map((file) => {
      const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
      return [file, stat ? `${stat.size}:${stat.mtimeMs}` : 'missing'];
    }),
  );
}

/** The bundle `manifest` names, when it exists and none of its inputs has changed since. */
export function currentBundle(root, manifest) {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  } catch {
    return undefined; // none yet, or unreadable
  }
  // The bundle names its sources by absolute URL (import.meta.url): a moved checkout builds anew.
  if (
    recorded?.root !== root ||
    typeof recorded.bundle !== 'string' ||
    typeof recorded.inputs !== 'object' ||
    recorded.inputs === null
  )
    return undefined;
  if (!fs.existsSync(recorded.bundle)) return undefined;
  const now = fingerprint(root, Object.keys(recorded.inputs));
  return Object.entries(recorded.inputs).every(([file, seen]) => now[file] === seen) ? recorded.bundle : undefined;
}

/**
 * Records `bundle`, built from `inputs` by a build that started at `started` (ms): unless an input
 * changed while it ran, as the bundle may then predate the change (the next start builds again).
 */
export function recordBundle(root, manifest, bundle, inputs, started) {
  const seen = fingerprint(root, inputs);
  if (!Object.values(seen).every((value) => value !== 'missing' && Number(value.split(':')[1]) < started)) return;
  const partial = `${manifest}.${process.pid}`;
  fs.mkdirSync(path.dirname(manifest), { recursive: true });
  fs.writeFileSync(partial, JSON.stringify({ root, bundle, inputs: seen }));
  fs.renameSync(partial, manifest);
}
