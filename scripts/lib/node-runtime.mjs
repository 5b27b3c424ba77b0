// The Node.js the suite runs on (docs/decisions/042): the supported LTS line, and when the machine's
// own Node.js is older, the official binary of the pinned release from the npm registry (the
// `node-<platform>-<arch>` packages hold it; the `node` package itself only fetches one of them
// in an install script), unpacked once into .tmp/. Pinned, so that a new release changes the
// suite only by a commit. Nothing is downloaded from anywhere but the npm registry.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const SUPPORTED_MAJOR = 24;
export const PINNED_NODE = '24.21.0';

/** The running Node.js is on the supported line (or newer). */
export function isSupportedNode(version = process.versions.node) {
  return Number(version.split('.')[0]) >= SUPPORTED_MAJOR;
}

/**
 * The path of a `node` binary of the supported line: this process's when it is one, else the
 * pinned release unpacked under `<root>/.tmp`, fetched with `npm pack` on first use.
 */
export function supportedNodeBinary(root) {
  if (isSupportedNode()) return process.execPath;
  const dir = path.join(root, '.tmp', `node-${PINNED_NODE}`);
  const binary = path.join(dir, 'package', 'bin', 'node');
  if (fs.existsSync(binary)) return binary;
  const pkg = `node-${process.platform}-${process.arch === 'x64' ? 'x64' : process.arch}@${PINNED_NODE}`;
  console.log(
    `Fetching Node.js ${PINNED_NODE} (${pkg}) from the npm registry: this machine's Node.js ${process.version} is older than ${SUPPORTED_MAJOR}...`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', '--silent', pkg], { cwd: dir, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['xzf', tarball], { cwd: dir });
    fs.rmSync(path.join(dir, tarball), { force: true });
  } catch (error) {
    throw new Error(
      `Node.js ${SUPPORTED_MAJOR} is needed and could not be fetched as ${pkg} from the npm registry (${error.message.split('\n')[0]}). Install Node.js ${SUPPORTED_MAJOR} LTS and run again.`,
      { cause: error },
    );
  }
  if (!fs.existsSync(binary)) throw new Error(`${pkg} did not hold bin/node`);
  return binary;
}
