/**
 * The treasury chart of the board: the public Kaban ng Bayan figure at the start
 * and at the end of every Year (the view's `history`, the same for every viewer, so a
 * board opened mid-game draws it all), and the current figure, as an inline SVG drawn here.
 */

import { svg } from './dom.js';
import { t } from './i18n.js';

/** The chart's points for `view`: every past Year's closing figure, then this Year's. */
export function kabanPoints(view) {
  const points = new Map((view.history ?? []).map((p) => [p.year, p.kaban_public]));
  if (!points.has(view.year)) points.set(view.year, view.kaban_public);
  return [...points].map(([year, kaban]) => ({ year, kaban })).sort((a, b) => a.year - b.year);
}

/** The chart of `points` ([{year, kaban}], Year 0 = the start). */
export function treasuryChart(points) {
  const width = 600;
  const height = 260;
  const pad = { left: 48, right: 24, top: 34, bottom: 36 };
  const years = points.map((p) => p.year);
  const values = points.map((p) => p.kaban);
  const lastYear = Math.max(1, ...years);
  const low = Math.min(0, ...values);
  const high = Math.max(10, ...values);
  const x = (year) => pad.left + ((width - pad.left - pad.right) * year) / lastYear;
  const y = (value) => pad.top + ((height - pad.top - pad.bottom) * (high - value)) / (high - low || 1);
  const ticks = niceTicks(low, high);
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.year).toFixed(1)},${y(p.kaban).toFixed(1)}`).join(' ');
  const summary = points.map((p) => `${p.year ? t('year.short', { year: p.year }) : t('chart.start')}: ${p.kaban}`).join(', ');
  return svg(
    'svg',
    { testid: 'treasury-chart', class: 'treasury-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${t('chart.title')}: ${summary}` },
    svg('title', { text: t('chart.title') }),
    ticks.map((value) => [
      svg('line', { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: value === 0 ? 'axis zero' : 'grid' }),
      svg('text', { x: pad.left - 6, y: y(value) + 5, 'text-anchor': 'end', class: 'tick', text: String(value) }),
    ]),
    points.map((p) =>
      svg('text', { x: x(p.year), y: height - 10, 'text-anchor': 'middle', class: 'tick', text: p.year ? String(p.year) : t('chart.start') }),
    ),
    svg('path', { d: line, class: 'line' }),
    points.map((p) => [
      svg('circle', { cx: x(p.year), cy: y(p.kaban), r: 6, class: 'dot' }),
      svg('text', { x: x(p.year), y: y(p.kaban) - 12, 'text-anchor': 'middle', class: 'value', text: String(p.kaban) }),
    ]),
  );
}

function niceTicks(low, high) {
  const span = high - low;
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((s) => span / s <= 6) ?? Math.ceil(span / 6);
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) ticks.push(v);
  return ticks;
}
