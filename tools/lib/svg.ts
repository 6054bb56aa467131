/**
 * A scatter chart as hand-written SVG (no dependencies): one labelled point per
 * setting. Settings that land on the same spot share one dot and a stacked label.
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

const WIDTH = 760;
const HEIGHT = 500;
const MARGIN = { left: 70, right: 40, top: 50, bottom: 60 };
/** Labels stacked at one spot before the rest are summarised as `+N more`. */
const STACK = 4;

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

export function scatterSvg(points: readonly Point[], options: ChartOptions): string {
  const xTicks = ticks(Math.max(1, ...points.map((point) => point.x)));
  const yTicks = ticks(Math.max(1, options.yMax ?? 0, ...points.map((point) => point.y)));
  const xMax = xTicks.at(-1) ?? 1;
  const yMax = yTicks.at(-1) ?? 1;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const px = (x: number): number => MARGIN.left + (x / xMax) * plotW;
  const py = (y: number): number => MARGIN.top + plotH - (y / yMax) * plotH;
  const round = (value: number): string => value.toFixed(1);

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="28" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(options.title)}</text>`,
  ];
  for (const x of xTicks) {
    out.push(`<line x1="${round(px(x))}" y1="${MARGIN.top}" x2="${round(px(x))}" y2="${MARGIN.top + plotH}" stroke="#e6e6e6"/>`);
    out.push(`<text x="${round(px(x))}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${x}</text>`);
  }
  for (const y of yTicks) {
    out.push(`<line x1="${MARGIN.left}" y1="${round(py(y))}" x2="${MARGIN.left + plotW}" y2="${round(py(y))}" stroke="#e6e6e6"/>`);
    out.push(`<text x="${MARGIN.left - 8}" y="${round(py(y) + 4)}" text-anchor="end">${y}</text>`);
  }
  out.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444444"/>`);
  out.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 15}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`);
  out.push(
    `<text x="18" y="${MARGIN.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 18 ${MARGIN.top + plotH / 2})">${escapeXml(options.yLabel)}</text>`,
  );

  const spots = new Map<string, Point[]>();
  for (const point of points) {
    const key = `${point.x},${point.y}`;
    spots.set(key, [...(spots.get(key) ?? []), point]);
  }
  for (const group of spots.values()) {
    const first = group[0];
    if (first === undefined) continue;
    const cx = px(first.x);
    const cy = py(first.y);
    out.push(`<circle cx="${round(cx)}" cy="${round(cy)}" r="5" fill="#1f6feb" fill-opacity="0.8"/>`);
    const lines = group.slice(0, STACK).map((point) => point.label);
    if (group.length > STACK) lines.push(`+${group.length - STACK} more`);
    // Labels go left of points in the right third, so they stay inside the chart.
    const left = cx > MARGIN.left + (plotW * 2) / 3;
    const tx = left ? cx - 9 : cx + 9;
    lines.forEach((line, at) => {
      out.push(`<text x="${round(tx)}" y="${round(cy - 6 + at * 13)}" text-anchor="${left ? 'end' : 'start'}" font-size="10">${escapeXml(line)}</text>`);
    });
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
