/**
 * axe-core's findings on a page, every frame included: the one home of the browser tests'
 * accessibility checks.
 *
 * axe runs in each frame's document itself, injected once per document and run again there (light,
 * then dark, on the same load). @axe-core/playwright's `analyze()` injected axe into every frame at
 * each call and opened a blank page to merge the frames' partial results: about 0.9 CPU-seconds a
 * run against some 0.1 s here (ten runs on the demo store page, the browser's and the runner's
 * CPU), and the browser tests run a few hundred. The rules are the same: axe's defaults, as
 * `analyze()` ran them.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from '@playwright/test';
import type { AxeResults, Result, RunOptions } from 'axe-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Each frame's own run: violations only (passes and incomplete results would only be sent over). */
const OPTIONS: RunOptions = { resultTypes: ['violations'], iframes: false };

async function violationsIn(frame: Frame): Promise<Result[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  const results = await frame.evaluate(
    (options) =>
      (window as unknown as { axe: { run: (c: Document, o: RunOptions) => Promise<AxeResults> } }).axe.run(
        document,
        options,
      ),
    OPTIONS,
  );
  return results.violations;
}

/**
 * axe's violations on the page as it is now, of every impact: the main document's, then each
 * frame's, whose targets start with the frame's URL.
 */
export async function axeViolations(page: Page): Promise<Result[]> {
  const found: Result[] = [];
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    const inFrame = frame === page.mainFrame() ? '' : `${frame.url()} `;
    for (const violation of await violationsIn(frame))
      found.push({
        ...violation,
        nodes: violation.nodes.map((node) => ({ ...node, target: inFrame ? [inFrame, ...node.target] : node.target })),
      });
  }
  return found;
}
