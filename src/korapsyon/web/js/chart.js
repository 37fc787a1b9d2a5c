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

import { h, placed } from './dom.js';
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

/**
 * The chart (`treasury-chart`): each Year's decrease against its known cost, one column
 * per Year (`treasury-year`, `data-year`).
 *
 * The bars, the grid and every word (the axis numbers, the Years, the values over the
 * bars, what the projects do not explain) are HTML, sized by the stylesheet in the
 * board's own type and placed by percentages of the plot: drawn in an SVG's viewBox,
 * they shrank with the chart (7-9 px on a 720p TV, unreadable from a sofa). With more
 * Years than `NAMED` the bars thin out and every other Year, counted back from this one,
 * keeps its words, so that none runs into the next; a game longer than `DRAWN` Years
 * draws its latest `DRAWN` (its `aria-label` says every Year).
 */
export function treasuryChart(all) {
  const years = all.slice(-DRAWN);
  const high = Math.max(10, ...years.map((y) => Math.max(y.decrease ?? 0, y.cost)));
  const ticks = niceTicks(0, high);
  const top = Math.max(high, ticks[ticks.length - 1]);
  const share = (value) => (100 * value) / top; // % of the plot's height
  const every = Math.ceil(years.length / NAMED);
  const named = (i) => (years.length - 1 - i) % every === 0;
  const summary = all
    .map((yr) => t(yr.decrease === null ? 'chart.summary_pending' : 'chart.summary', {
      year: yr.year, decrease: yr.decrease ?? 0, cost: yr.cost, unexplained: (yr.decrease ?? 0) - yr.cost,
    }))
    .join(' ');
  const chart = h(
    'div',
    { testid: 'treasury-chart', class: 'treasury-chart', role: 'img', 'aria-label': `${t('chart.title')}. ${summary}` },
    h(
      'div',
      { class: 'treasury-y', 'aria-hidden': 'true' },
      ticks.map((value) => placed(h('span', { class: 'tick', text: String(value) }), '--at', share(value))),
    ),
    h(
      'div',
      { class: 'treasury-plot', 'aria-hidden': 'true' },
      ticks.map((value) => placed(h('span', { class: value === 0 ? 'axis zero' : 'grid' }), '--at', share(value))),
      years.map((yr, i) => h('div', { testid: 'treasury-year', class: 'treasury-year', data: { year: yr.year } }, bar(yr, share, named(i)))),
    ),
    h(
      'div',
      { class: 'treasury-x', 'aria-hidden': 'true' },
      years.map((yr, i) => h('span', { class: 'tick', text: named(i) ? t('year.short', { year: yr.year }) : '' })),
    ),
  );
  // (CSSOM, which the CSP allows: the bars keep a readable width in Year 1)
  chart.style.setProperty('--slots', String(Math.max(years.length, 6)));
  chart.style.setProperty('--plot-lines', String(PLOT_LINES));
  chart.style.setProperty('--digits', String(String(top).length)); // (the axis's widest number)
  return chart;
}

/** Years whose words the chart shows at most (beyond, every other): each has room for them. */
const NAMED = 8;
/** Years the chart draws at most (the latest): beyond, a bar is too thin to read. */
const DRAWN = 12;
/** The plot's height in lines of the chart's words (each 1.2 of their size). */
const PLOT_LINES = 6;

/**
 * One Year's bar, from the plot's foot: the known cost, what it does not explain on top
 * (hatched, its amount inside when there is room for a line of the chart's words) and
 * the decrease over it; before the report, the known cost alone, open, with a "?" over
 * it. `words`: false when a crowded chart leaves this Year's words out.
 */
function bar(yr, share, words) {
  const block = (cls, value, ...inside) => placed(h('div', { class: cls }, inside), '--size', share(value));
  const over = (text, cls = 'value') => (words ? h('span', { class: cls, text }) : null);
  if (yr.decrease === null) {
    return h('div', { class: 'treasury-stack' }, over('?', 'value muted'), yr.cost ? block('projects pending', yr.cost) : null);
  }
  const known = Math.min(yr.cost, yr.decrease);
  const gap = yr.decrease - known;
  const roomy = words && gap && (share(gap) / 100) * PLOT_LINES >= 1;
  return h(
    'div',
    { class: 'treasury-stack' },
    over(String(yr.decrease)),
    gap ? block('unexplained', gap, roomy ? h('span', { class: 'inside', text: `+${gap}` }) : null) : null,
    known ? block('projects', known) : null,
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
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((s) => span / s <= 4) ?? Math.ceil(span / 4); // (at most 4 steps: their numbers a line and a half apart)
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v < high + step; v += step) ticks.push(v);
  return ticks;
}
