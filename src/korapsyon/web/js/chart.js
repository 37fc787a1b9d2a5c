/**
 * The game's main clue, as the table reasons with it: the treasury report beside
 * the known cost of the projects built. A lasting tile (this Year's report) and a
 * chart of every Year, both from the public timeline, so a board opened mid-game draws
 * them whole.
 *
 * Why not a line of the Kaban ng Bayan's public figure: that figure takes in each Year's
 * revenue (R-32, one per active player, about 9-16) right after the report, so a Year in
 * which the treasury lost 9 shows as a rise. What the table reasons with is the report
 * itself: Year Y's total decrease is its steal minus the Suhol refund plus the cost of
 * the project that succeeded (R-25 steps 3-4, R-31, R-34). The cost is public, so the
 * decrease minus the cost of the projects built that Year is what the Corrupt took, net
 * of Suhol - "not explained by projects". Auto Jail is paid from Approved Public
 * Spending and Tokhang from the Corruption Fund, never from the Kaban (R-25 steps 5-6),
 * so nothing else enters the sum. The chart draws, for each Year, the decrease as a bar:
 * the known project cost at its foot, what the projects do not explain on top of it; the
 * current Year has no report yet (it comes at the start of next Year's Public Phase), so
 * its bar is the known cost alone, drawn open.
 */

import { h, svg } from './dom.js';
import { t } from './i18n.js';
import { cardName } from './words.js';

/**
 * Each Year of the game so far: `{year, cost, cards, decrease}` - the cost and the cards
 * of the projects that succeeded that Year, and the decrease the treasury report of the
 * next Year gave for it (null until that report).
 */
export function treasuryYears(view, timeline) {
  const years = new Map();
  const year = (y) => {
    if (!years.has(y)) years.set(y, { year: y, cost: 0, cards: [], decrease: null });
    return years.get(y);
  };
  for (let y = 1; y <= view.year; y += 1) year(y);
  for (const entry of timeline) {
    const p = entry.params || {};
    if (entry.kind === 'project_voted' && p.succeeded) {
      year(entry.year).cost += p.cost;
      year(entry.year).cards.push(p.card);
    } else if (entry.kind === 'treasury_report' && p.decrease !== null && entry.year > 1) {
      year(entry.year - 1).decrease = p.decrease; // the report is about last Year
    }
  }
  return [...years.values()].filter((y) => y.year >= 1).sort((a, b) => a.year - b.year);
}

/** The latest Year with a treasury report, or null (Year 1 has none, R-31). */
export function latestReport(years) {
  return [...years].reverse().find((y) => y.decrease !== null) ?? null;
}

/**
 * The lasting tile (`treasury-tile`): the latest report's decrease, the known cost of
 * that Year's projects and what they do not explain (`data-year`, `data-decrease`,
 * `data-projects`, `data-unexplained`).
 */
export function treasuryTile(years) {
  const report = latestReport(years);
  if (!report) {
    return h(
      'div',
      { testid: 'treasury-tile', class: 'tracker treasury-tile' },
      h('span', { class: 'label', text: `🧾 ${t('treasury.title')}` }),
      h('p', { class: 'treasury-none', text: t('treasury.none') }),
    );
  }
  const unexplained = report.decrease - report.cost;
  const built = report.cards.length ? report.cards.map(cardName).join(', ') : t('treasury.none_built');
  return h(
    'div',
    {
      testid: 'treasury-tile',
      class: 'tracker treasury-tile',
      data: { year: report.year, decrease: report.decrease, projects: report.cost, unexplained },
    },
    h('span', { class: 'label', text: `🧾 ${t('treasury.title_year', { year: report.year })}` }),
    h(
      'dl',
      { class: 'treasury-sum' },
      h('dt', { text: t('treasury.decrease') }),
      h('dd', { class: 'figure', text: String(report.decrease) }),
      h('dt', {}, t('treasury.projects'), h('span', { class: 'cards', text: ` (${built})` })),
      h('dd', { class: 'figure', text: `− ${report.cost}` }),
      h('dt', { class: 'unexplained', text: t('treasury.unexplained') }),
      h('dd', { class: `figure unexplained${unexplained > 0 ? ' bad' : ''}`, text: `= ${unexplained}` }),
    ),
  );
}

/** The chart (`treasury-chart`, an `<svg>`): each Year's decrease against its known cost. */
export function treasuryChart(years) {
  const width = 600;
  const height = 250;
  const pad = { left: 40, right: 12, top: 30, bottom: 34 };
  const high = Math.max(10, ...years.map((y) => Math.max(y.decrease ?? 0, y.cost)));
  const ticks = niceTicks(0, high);
  const top = Math.max(high, ticks[ticks.length - 1]);
  const slots = Math.max(years.length, 6); // bars keep a readable width in Year 1
  const slot = (width - pad.left - pad.right) / slots;
  const bar = Math.min(slot * 0.64, 64);
  const y = (value) => pad.top + ((height - pad.top - pad.bottom) * (top - value)) / top;
  const x = (i) => pad.left + slot * i + (slot - bar) / 2;
  const summary = years
    .map((yr) => t(yr.decrease === null ? 'chart.summary_pending' : 'chart.summary', {
      year: yr.year, decrease: yr.decrease ?? 0, cost: yr.cost, unexplained: (yr.decrease ?? 0) - yr.cost,
    }))
    .join(' ');
  return svg(
    'svg',
    { testid: 'treasury-chart', class: 'treasury-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${t('chart.title')}. ${summary}` },
    svg('title', { text: t('chart.title') }),
    svg(
      'defs',
      {},
      svg(
        'pattern',
        { id: 'unexplained-hatch', width: 10, height: 10, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        svg('rect', { width: 10, height: 10, class: 'hatch-ground' }),
        svg('line', { x1: 0, y1: 0, x2: 0, y2: 10, class: 'hatch-line' }),
      ),
    ),
    ticks.map((value) => [
      svg('line', { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value), class: value === 0 ? 'axis zero' : 'grid' }),
      svg('text', { x: pad.left - 6, y: y(value) + 5, 'text-anchor': 'end', class: 'tick', text: String(value) }),
    ]),
    years.map((yr, i) => {
      const left = x(i);
      const middle = left + bar / 2;
      const parts = [svg('text', { x: middle, y: height - 10, 'text-anchor': 'middle', class: 'tick', text: t('year.short', { year: yr.year }) })];
      if (yr.decrease === null) {
        // no report yet: the known cost alone, open, with a question mark above it
        if (yr.cost) parts.push(svg('rect', { x: left, y: y(yr.cost), width: bar, height: y(0) - y(yr.cost), class: 'projects pending' }));
        parts.push(svg('text', { x: middle, y: y(yr.cost) - 8, 'text-anchor': 'middle', class: 'value muted', text: '?' }));
        return parts;
      }
      const known = Math.min(yr.cost, yr.decrease);
      const gap = yr.decrease - known;
      if (known) parts.push(svg('rect', { x: left, y: y(known), width: bar, height: y(0) - y(known), class: 'projects' }));
      if (gap) {
        parts.push(svg('rect', { x: left, y: y(yr.decrease), width: bar, height: y(known) - y(yr.decrease), class: 'unexplained' }));
        if (y(known) - y(yr.decrease) >= 18) {
          parts.push(svg('text', { x: middle, y: (y(known) + y(yr.decrease)) / 2 + 6, 'text-anchor': 'middle', class: 'inside', text: `+${gap}` }));
        }
      }
      parts.push(svg('text', { x: middle, y: y(yr.decrease) - 8, 'text-anchor': 'middle', class: 'value', text: String(yr.decrease) }));
      return parts;
    }),
  );
}

/** The chart's legend, in the page's words and never by colour alone (a pattern too). */
export function chartLegend() {
  // (each key with its words: a line never ends on a swatch whose words start the next)
  const item = (key, words, mark = '') =>
    h('span', { class: 'legend-item' }, h('span', { class: `key ${key}`, 'aria-hidden': 'true', text: mark }), words);
  return h(
    'p',
    { class: 'chart-legend' },
    item('projects', t('chart.projects')),
    item('unexplained', t('chart.unexplained')),
    item('pending', t('chart.pending'), '?'),
  );
}

function niceTicks(low, high) {
  const span = high - low;
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((s) => span / s <= 5) ?? Math.ceil(span / 5);
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v < high + step; v += step) ticks.push(v);
  return ticks;
}
