#!/usr/bin/env node
// `npm run lock:platforms`: completes package-lock.json with the other platforms' optional
// binaries (next's @next/swc-darwin-*, tailwind's @tailwindcss/oxide-win32-*, ...) that the
// registry reachable here does not carry, so that `npm ci` accepts the lock on every platform
// (decision 020). Run it after an `npm install` that changed the lock.
//
// Each entry added has the exact version its parent pins, and the platform fields (os, cpu,
// libc, engines, license, dependencies, bundleDependencies) of the newest earlier version of the
// same package that the registry does carry. It has no `integrity`: that is the hash of a tarball
// that cannot be downloaded here, and it is never guessed. On the platform that installs such a
// package, npm checks the tarball against the integrity the registry states for it then.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './lib/build.mjs';

const lockFile = path.join(root, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
const packages = lock.packages;

const added = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolve(location, name)) continue;
    if (!/^\d+\.\d+\.\d+$/.test(spec))
      throw new Error(`${location}: optional ${name}@${spec} is missing and not pinned to one version`);
    const target = packages[`node_modules/${name}`] ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    packages[target] = lockEntry(spec, nearestManifest(name, spec), entry.dev === true);
    added.push(`${target}@${spec}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
fs.writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added.length > 0 ? `added without integrity:\n  ${added.join('\n  ')}` : 'the lock names every optional package',
);

/** Where Node would find `name` from the package at `location` (its own node_modules, then up). */
function resolve(location, name) {
  for (let base = location; ;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const up = base.lastIndexOf('/node_modules/');
    base = up < 0 ? '' : base.slice(0, up);
  }
}

/** The manifest of the newest version of `name` at or below `version` that the registry has. */
function nearestManifest(name, version) {
  const releases = [npmView(name, 'versions')]
    .flat()
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && compare(v, version) <= 0);
  const nearest = releases.sort(compare).at(-1);
  if (!nearest) throw new Error(`the registry has no version of ${name} up to ${version}`);
  const manifest = npmView(`${name}@${nearest}`);
  console.log(`${name}@${version}: platform fields of ${nearest}`);
  return manifest;
}

/** A lock entry in the order of npm's own keys, so that a later `npm install` rewrites nothing. */
function lockEntry(version, manifest, dev) {
  const bundle = manifest.bundleDependencies ?? manifest.bundledDependencies;
  const dependencies =
    manifest.dependencies &&
    Object.fromEntries(Object.entries(manifest.dependencies).sort(([a], [b]) => a.localeCompare(b, 'en')));
  const entry = {
    version,
    bundleDependencies: bundle?.length ? bundle : undefined,
    cpu: manifest.cpu,
    dev: dev || undefined,
    libc: manifest.libc,
    license: manifest.license,
    optional: true,
    os: manifest.os,
    dependencies,
    engines: manifest.engines,
  };
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
}

function npmView(spec, field) {
  const args = ['view', spec, ...(field ? [field] : []), '--json'];
  return JSON.parse(
    execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 }),
  );
}

function compare(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}
