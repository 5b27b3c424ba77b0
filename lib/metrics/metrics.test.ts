import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { metrics } from '.';

const DASHBOARD = path.join(process.cwd(), 'docs', 'grafana', 'gateway-dashboard.json');

describe('the Grafana dashboard in the repository', () => {
  it('asks only for metrics the gateway exports, so the two cannot drift apart', async () => {
    const { registry } = metrics();
    const exported = new Set<string>();
    for (const metric of await registry.getMetricsAsJSON()) {
      exported.add(metric.name);
      // A histogram's series: _bucket, _sum, _count.
      // prom-client's types name the type by an enum; its JSON carries the text.
      if (String(metric.type) === 'histogram')
        for (const suffix of ['_bucket', '_sum', '_count']) exported.add(metric.name + suffix);
    }
    const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const asked = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) => target.expr.match(/\b(?:gateway|process|nodejs)_[a-z0-9_]+\b/g) ?? []),
    );
    expect(asked.length).toBeGreaterThan(15);
    expect(asked.filter((name) => !exported.has(name))).toEqual([]);
    // And every gateway metric has a panel.
    const gateway = [...exported].filter(
      (name) =>
        name.startsWith('gateway_') && !/_(sum|count)$/.test(name) && name !== 'gateway_api_request_duration_seconds',
    );
    expect(gateway.filter((name) => name !== 'gateway_metrics_scrape_errors_total' && !asked.includes(name))).toEqual(
      [],
    );
  });
});
