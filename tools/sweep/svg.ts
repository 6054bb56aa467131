/**
 * A scatter chart as hand-written SVG (no dependencies): one numbered dot per
 * spot, and a legend naming the settings at each. Settings that land on the
 * same spot share a dot and a number.
 */

export interface Point {
  readonly label: string;
  readonly x: number;
  readonly y: number;
}

export interface ChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** The top of the y axis (e.g. the number of stuck sessions); default the largest y. */
  readonly yMax?: number;
}

const PLOT = { left: 70, top: 50, width: 480, height: 390 };
const LEGEND_X = PLOT.left + PLOT.width + 40;
const LINE = 14;

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Round tick steps (1, 2, 5 × 10^n) giving about `count` ticks up to `max`. */
export function ticks(max: number, count = 6): number[] {
  if (max <= 0) return [0];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? power * 10;
  const whole = Math.max(1, Math.round(step));
  const out: number[] = [];
  for (let value = 0; value <= max + 1e-9; value += whole) out.push(value);
  if ((out.at(-1) ?? 0) < max) out.push((out.at(-1) ?? 0) + whole);
  return out;
}

/**
 * Each distinct spot is numbered on the chart and the settings are listed by
 * number in a legend beside it: long setting names never overlap each other.
 */
export function scatterSvg(points: readonly Point[], options: ChartOptions): string {
  const xTicks = ticks(Math.max(1, ...points.map((point) => point.x)));
  const yTicks = ticks(Math.max(1, options.yMax ?? 0, ...points.map((point) => point.y)));
  const xMax = xTicks.at(-1) ?? 1;
  const yMax = yTicks.at(-1) ?? 1;
  const px = (x: number): number => PLOT.left + (x / xMax) * PLOT.width;
  const py = (y: number): number => PLOT.top + PLOT.height - (y / yMax) * PLOT.height;
  const round = (value: number): string => value.toFixed(1);

  const spots = new Map<string, Point[]>();
  for (const point of points) {
    const key = `${point.x},${point.y}`;
    spots.set(key, [...(spots.get(key) ?? []), point]);
  }
  const legendLines = points.length + spots.size;
  const height = Math.max(PLOT.top + PLOT.height + 60, PLOT.top + 20 + legendLines * LINE);
  const longest = Math.max(20, ...points.map((point) => point.label.length));
  const width = LEGEND_X + 40 + Math.ceil(longest * 6.2);

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="28" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`,
  ];
  for (const x of xTicks) {
    out.push(`<line x1="${round(px(x))}" y1="${PLOT.top}" x2="${round(px(x))}" y2="${PLOT.top + PLOT.height}" stroke="#e6e6e6"/>`);
    out.push(`<text x="${round(px(x))}" y="${PLOT.top + PLOT.height + 18}" text-anchor="middle">${x}</text>`);
  }
  for (const y of yTicks) {
    out.push(`<line x1="${PLOT.left}" y1="${round(py(y))}" x2="${PLOT.left + PLOT.width}" y2="${round(py(y))}" stroke="#e6e6e6"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${round(py(y) + 4)}" text-anchor="end">${y}</text>`);
  }
  out.push(`<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.width}" height="${PLOT.height}" fill="none" stroke="#444444"/>`);
  out.push(
    `<text x="${PLOT.left + PLOT.width / 2}" y="${PLOT.top + PLOT.height + 45}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
  );
  const midY = PLOT.top + PLOT.height / 2;
  out.push(`<text x="22" y="${midY}" text-anchor="middle" transform="rotate(-90 22 ${midY})">${escapeXml(options.yLabel)}</text>`);

  let line = 0;
  const legendY = (): number => PLOT.top + 10 + line * LINE;
  [...spots.values()].forEach((group, index) => {
    const first = group[0];
    if (first === undefined) return;
    const number = String(index + 1);
    const cx = px(first.x);
    const cy = py(first.y);
    out.push(`<circle cx="${round(cx)}" cy="${round(cy)}" r="5" fill="#1f6feb" fill-opacity="0.8"/>`);
    out.push(`<text x="${round(cx + 7)}" y="${round(cy - 6)}" font-size="11" font-weight="bold">${number}</text>`);
    out.push(`<text x="${LEGEND_X}" y="${legendY()}" font-weight="bold">${number}: (${first.x}, ${first.y})</text>`);
    line += 1;
    for (const point of group) {
      out.push(`<text x="${LEGEND_X + 14}" y="${legendY()}" font-size="11">${escapeXml(point.label)}</text>`);
      line += 1;
    }
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
