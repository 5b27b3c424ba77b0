/**
 * Every relative link of the README and of docs/ resolves: the file (or folder) exists inside the
 * repository, and a `#anchor` names a heading of the target as GitHub renders it. The docs are
 * split by topic and link to each other's sections, so a renamed heading or a moved file breaks
 * links that nobody clicks until a newcomer does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** README.md and every Markdown file under docs/, as paths relative to the repository. */
function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file));
  return ['README.md', ...docs.sort()];
}

/** The text outside fenced code blocks, line by line (a fenced line becomes empty, keeping line numbers). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1]![0] === fence[0] && opener[1]!.length >= fence.length && line.trim() === opener[1])
        fence = undefined;
      return '';
    }
    if (opener) {
      fence = opener[1];
      return '';
    }
    return line;
  });
}

/** A heading's anchor as GitHub makes it (github-slugger): inline markup dropped, lower case, punctuation removed, spaces to hyphens. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/`/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
/** The anchors a Markdown file offers: its headings' slugs (a repeated one numbered -1, -2...) and `<a id|name>`s. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  for (const line of proseLines(fs.readFileSync(file, 'utf8'))) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(html[1]!);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** The link targets of a file's prose: inline links and images, and reference definitions (code spans skipped). */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  proseLines(fs.readFileSync(path.join(ROOT, file), 'utf8')).forEach((raw, index) => {
    const line = raw.replace(/(`+)[\s\S]*?\1/g, '');
    const targets = [
      ...[...line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!.replace(/^<|>$/g, '')),
      ...[...line.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) links.push({ file, line: index + 1, target });
  });
  return links;
}

/** Why a link does not resolve, or undefined when it does. External links (a scheme, or `//`) are not checked. */
function brokenBecause({ file, target }: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved =
    pathPart === ''
      ? path.join(ROOT, file)
      : pathPart.startsWith('/')
        ? path.join(ROOT, pathPart)
        : path.resolve(ROOT, path.dirname(file), pathPart);
  if (path.relative(ROOT, resolved).startsWith('..')) return 'points outside the repository';
  if (!fs.existsSync(resolved)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (!resolved.endsWith('.md')) return 'an anchor into a file that is not Markdown';
  return anchorsOf(resolved).has(anchor) ? undefined : `no heading "#${anchor}" in ${path.relative(ROOT, resolved)}`;
}

describe('links of the README and docs/', () => {
  const files = markdownFiles();

  it('finds the documents and their links', () => {
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(1);
    expect(files.flatMap(linksOf).length).toBeGreaterThan(50);
  });

  it('every relative link and anchor resolves', () => {
    const broken = files.flatMap(linksOf).flatMap((link) => {
      const why = brokenBecause(link);
      return why ? [`${link.file}:${link.line}: (${link.target}) ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('each topic of docs/ opens with contents that link every section', () => {
    const missing = files
      .filter((file) => path.dirname(file) === 'docs')
      .flatMap((file) => {
        const lines = proseLines(fs.readFileSync(path.join(ROOT, file), 'utf8'));
        const firstSection = lines.findIndex((line) => /^## /.test(line));
        const contents = lines.slice(0, firstSection).join('\n');
        if (!contents.includes('**Contents**')) return [`${file}: no **Contents** before its first section`];
        return lines
          .flatMap((line) => /^#{2,3} +(.*?)\s*$/.exec(line)?.[1] ?? [])
          .filter((heading) => !contents.includes(`](#${githubSlug(heading)})`))
          .map((heading) => `${file}: "${heading}" is not in its contents`);
      });
    expect(missing).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(githubSlug('Set-up: two commands')).toBe('set-up-two-commands');
    expect(githubSlug('The typed client (`lib/client`)')).toBe('the-typed-client-libclient');
    expect(githubSlug('`get-invoice`, `get-invoices`, `price-rate`')).toBe('get-invoice-get-invoices-price-rate');
    expect(githubSlug('Payment page status (public, unsigned)')).toBe('payment-page-status-public-unsigned');
    expect(githubSlug('What a [decision](x.md) says: `RUN_WORKERS`')).toBe('what-a-decision-says-run_workers');
  });
});
