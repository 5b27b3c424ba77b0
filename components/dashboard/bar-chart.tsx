/**
 * A bar chart drawn on the server as SVG: no chart library and no client JavaScript (a 30-bar
 * series needs neither, and the dashboard's pages stay free of a chart bundle). Values are decimal
 * strings (lib/money); bar heights are computed in bigint, so an 18-decimal token never passes
 * through a float. Screen readers get a one-sentence summary (the SVG is `role="img"`) and a
 * visually hidden table of every figure.
 */
import { formatUnits, parseDecimal } from '@/lib/money';

export interface BarChartPoint {
  /** The bar's label, e.g. a day `2026-11-24`. */
  label: string;
  /** A non-negative decimal string; anything else counts as 0. */
  value: string;
}

interface Props {
  id: string;
  title: string;
  /** What the values are counted in, e.g. `USD` or `BTC`. */
  unit: string;
  points: readonly BarChartPoint[];
}

const WIDTH = 600;
const HEIGHT = 160;
const TOP = 16;
const BOTTOM = 20;
const PLOT = HEIGHT - TOP - BOTTOM;

/** Every value as an integer of one common scale, so that they can be compared and summed exactly. */
function scaled(points: readonly BarChartPoint[]): { units: bigint[]; scale: number } {
  const decimals = points.map((p) => parseDecimal(p.value) ?? { value: 0n, scale: 0 });
  const scale = Math.max(0, ...decimals.map((d) => d.scale));
  return { units: decimals.map((d) => d.value * 10n ** BigInt(scale - d.scale)), scale };
}

export function BarChart({ id, title, unit, points }: Props) {
  const { units, scale } = scaled(points);
  const max = units.reduce((a, b) => (b > a ? b : a), 0n);
  const total = units.reduce((a, b) => a + b, 0n);
  const peak = units.indexOf(max);
  const slot = points.length > 0 ? WIDTH / points.length : WIDTH;
  const barWidth = Math.max(1, slot * 0.7);
  // Pixels, not money: a non-zero day keeps at least one pixel, so that it never looks like nothing.
  const heightOf = (u: bigint) => (u === 0n ? 0 : Math.max(1, Number((u * BigInt(PLOT * 100)) / max) / 100));
  const summary =
    max === 0n
      ? `${title}: nothing received in these ${points.length} days.`
      : `${title}: ${formatUnits(total, scale)} ${unit} in ${points.length} days, the most on ${points[peak]?.label} (${formatUnits(max, scale)} ${unit}).`;
  const first = points[0]?.label;
  const last = points[points.length - 1]?.label;

  return (
    <figure className="w-full">
      <figcaption className="mb-1 text-sm font-medium">
        {title} <span className="font-normal text-muted">({unit})</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-summary`}
        className="h-auto w-full text-muted"
      >
        <title id={`${id}-summary`}>{summary}</title>
        <line x1={0} x2={WIDTH} y1={TOP + PLOT} y2={TOP + PLOT} className="stroke-current" strokeWidth={1} />
        {max > 0n ? (
          <text x={0} y={TOP - 4} className="fill-current" fontSize={11}>
            {`${formatUnits(max, scale)} ${unit}`}
          </text>
        ) : null}
        {units.map((u, i) => {
          const h = heightOf(u);
          return (
            <rect
              key={points[i]!.label}
              x={i * slot + (slot - barWidth) / 2}
              y={TOP + PLOT - h}
              width={barWidth}
              height={h}
              className="fill-info-line"
            />
          );
        })}
        {first ? (
          <text x={0} y={HEIGHT - 4} className="fill-current" fontSize={11}>
            {first}
          </text>
        ) : null}
        {last && last !== first ? (
          <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="fill-current" fontSize={11}>
            {last}
          </text>
        ) : null}
      </svg>
      {/* The wrapper hides the table: a table is never narrower than its content, so `sr-only` on the
          table itself left its one-line caption as wide as the text, past the edge of a phone's screen. */}
      <div className="sr-only">
        <table>
          <caption>{`${title} (${unit}), per day`}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{`Received (${unit})`}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={p.label}>
                <th scope="row">{p.label}</th>
                <td>{formatUnits(units[i]!, scale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
