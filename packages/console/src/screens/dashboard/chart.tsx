import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** A colour of the theme (`--accent`...), read when the chart is drawn so light and dark both fit. */
function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/**
 * A chart of named values (bars, or a line for each series over the same labels), drawn by uPlot
 * on a canvas the screen readers skip; what they read instead is the summary under it, and the
 * same figures as a table behind "Show as a table" (a native disclosure, keyboard-usable).
 */
export function Chart(props: {
  title: string;
  labels: readonly string[];
  series: ReadonlyArray<{ name: string; values: readonly number[]; color?: string }>;
  kind: 'bars' | 'lines';
  summary: string;
  tableLabel: string;
  labelHeader: string;
  format?: (n: number) => string;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const { labels, series, kind } = props;
  // Redrawn when the figures change, not at every render of the screen.
  const signature = JSON.stringify([labels, series, kind]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature stands for labels, series and kind
  useEffect(() => {
    const el = box.current;
    if (!el || labels.length === 0) return;
    const text = cssVar('--text', '#222');
    const grid = cssVar('--border', '#ddd');
    const palette = [cssVar('--accent', '#2563eb'), '#d97706', '#059669', '#9333ea'];
    const xs = labels.map((_, i) => i);
    // At most ~12 labels along the axis, whatever the number of bars.
    const step = Math.max(1, Math.ceil(labels.length / Math.max(2, Math.floor(el.clientWidth / 70))));
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: 220,
      legend: { show: series.length > 1, live: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [
        {
          stroke: text,
          grid: { show: false },
          ticks: { stroke: grid },
          splits: () => xs.filter((i) => i % step === 0),
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        {
          stroke: text,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          // Counts step by whole numbers.
          ...(kind === 'bars' ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000] } : {}),
          values: (_u, splits) => splits.map((v) => (props.format ? props.format(v) : String(v))),
        },
      ],
      series: [
        {},
        ...series.map((s, i) => {
          const color = s.color ?? palette[i % palette.length]!;
          return kind === 'bars'
            ? { label: s.name, fill: color, stroke: color, paths: uPlot.paths.bars!({ size: [0.7, 48] }), points: { show: false } }
            : { label: s.name, stroke: color, width: 2, points: { show: labels.length < 40 } };
        }),
      ],
    };
    const plot = new uPlot(opts, [xs, ...series.map((s) => [...s.values])], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(200, el.clientWidth), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [signature]);

  const format = props.format ?? ((n: number) => String(n));
  return (
    <figure className="chart" aria-labelledby={titleId} data-testid={props.testId}>
      <figcaption id={titleId} className="chart-title">
        {props.title}
      </figcaption>
      <div ref={box} className="chart-canvas" aria-hidden="true" />
      <p className="chart-summary">{props.summary}</p>
      <details className="chart-table">
        <summary>{props.tableLabel}</summary>
        <table className="admin-table">
          <caption className="visually-hidden">{props.title}</caption>
          <thead>
            <tr>
              <th scope="col">{props.labelHeader}</th>
              {series.map((s) => (
                <th key={s.name} scope="col" className="number">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.name} className="number" data-label={s.name}>
                    {format(s.values[i] ?? 0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
