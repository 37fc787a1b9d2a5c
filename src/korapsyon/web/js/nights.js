/**
 * The night-by-night reveal at the end of a game (R-50): the view's `reveal`, the same for
 * every page, which the server sends only once the game is over. For each Year, who the
 * Lawyer protected, who the Ombudsperson investigated (and found), what each Corrupt
 * Politician chose (Nakaw, Suhol, Tokhang) and what came of it, the Good Politicians'
 * Auto Jail targets and their fate, and the COA's audit; then the Corruption Fund and the
 * true Kaban ng Bayan (with the public figure the table saw) over the Years, as a chart.
 * No ballot is in it: who voted how stays secret (R-34). The board shows it large; a
 * phone in a fold.
 */

import { h, placed, svg } from './dom.js';
import { roleTitle, t } from './i18n.js';
import { cardName, teamName } from './words.js';

/** The reveal of `view` (null before the end): every Year's card, then the chart. */
export function nightReveal(view) {
  const reveal = view.reveal;
  if (!reveal) return null;
  return h(
    'div',
    { testid: 'night-reveal', class: 'night-reveal' },
    h(
      'ol',
      { class: 'nights-years', 'aria-label': t('reveal.title') },
      reveal.years.map((year) => yearCard(year)),
    ),
    fundChart(reveal.trackers, view.targets),
  );
}

/**
 * The reveal on the board, large and at a glance: one column per Year, one row per player
 * who had a night choice (the Lawyer, the Ombudsperson, each Corrupt Politician and what
 * they did together, each Good Politician) and the COA's audit; the chart beside it.
 */
export function revealTable(view) {
  const reveal = view.reveal;
  if (!reveal) return null;
  const names = view.players.map((p) => p.name);
  const holding = (role) => reveal.roles.flatMap((r, i) => (r === role ? [names[i]] : []));
  const years = reveal.years;
  const pages = Math.ceil(years.length / PAGE_YEARS);
  const pageOf = (i) => Math.floor(i / PAGE_YEARS);
  const rows = [];
  const row = (kind, icon, name, label, cells) =>
    rows.push(
      h(
        'tr',
        { class: `nights-row nights-${kind}`, data: { kind } },
        h(
          'th',
          { scope: 'row' },
          h('span', { class: 'nights-icon', 'aria-hidden': 'true', text: icon }),
          name ? h('bdi', { class: 'name', text: name }) : null,
          h('span', { class: 'nights-role', text: label }),
        ),
        cells.map((cell, i) => h('td', { class: cell?.class ?? null, data: { page: pageOf(i) }, text: cell?.text ?? '—' })),
      ),
    );
  for (const lawyer of holding('lawyer')) {
    row('protect', '⚖', lawyer, t('reveal.row.protect'), years.map((y) => y.protect && { text: who(y.protect.target) }));
  }
  for (const omb of holding('ombudsperson')) {
    row('investigate', '🔍', omb, t('reveal.row.investigate'), years.map((y) => {
      const found = y.investigate;
      if (!found) return null;
      if (!found.target) return { text: t('option.nobody') };
      return { class: `team-${found.aligned}`, text: t('reveal.cell.investigate', { target: found.target, team: teamName(found.aligned) }) };
    }));
  }
  for (const corrupt of holding('corrupt_politician')) {
    row('corrupt', '💰', corrupt, t('reveal.row.corrupt'), years.map((y) => {
      const plan = y.corrupt.find((c) => c.player === corrupt);
      return plan && { text: corruptCell(plan) };
    }));
  }
  if (holding('corrupt_politician').length) {
    row('corrupt-outcome', '➜', null, t('reveal.row.outcome'), years.map((y) => (y.corrupt.length ? { class: 'outcome', text: corruptOutcome(y) } : null)));
  }
  for (const good of holding('good_politician')) {
    row('auto-jail', '🏗', good, t('reveal.row.auto_jail'), years.map((y) => {
      const jail = y.auto_jail.find((j) => j.player === good);
      if (!jail) return null;
      if (!jail.target) return { text: t('option.nobody') };
      const result = CANCELLED.has(jail.result) ? 'cancelled' : jail.result ?? 'none'; // (the phone's card says why)
      return { class: jail.result === 'jailed' ? 'outcome' : null, text: t('reveal.cell.auto_jail', { target: jail.target, result: t(`reveal.auto_jail.${result}`) }) };
    }));
  }
  for (const coa of holding('coa')) {
    row('audit', '📋', coa, t('reveal.row.audit'), years.map((y) => y.audit && { text: auditText(y.audit, 'reveal.cell.audit') }));
  }
  const shown = Math.min(years.length, PAGE_YEARS);
  const table = h(
    'table',
    { class: `nights-table${shown > 4 ? ' many' : ''}`, data: { page: 0, pages } },
    h('caption', { class: 'sr-only', text: t('reveal.title') }),
    h('thead', {}, h('tr', {}, h('td'), years.map((y, i) => h('th', { scope: 'col', testid: 'reveal-year', data: { year: y.year, page: pageOf(i) }, text: t('year.long', { year: y.year }) })))),
    h('tbody', {}, rows),
  );
  turnPages(table, pages);
  return h('div', { testid: 'night-reveal', class: 'night-reveal nights-board' }, table, fundChart(reveal.trackers, view.targets));
}

/** The board's table shows at most this many Years at once (a TV is read from afar). */
const PAGE_YEARS = 6;
const PAGE_MS = 12_000;

/**
 * A long game's Years, PAGE_YEARS at a time: each page in turn, every PAGE_MS, for as long
 * as the table is on the screen (the phones' cards show every Year at once).
 */
function turnPages(table, pages) {
  const show = (page) => {
    table.dataset.page = String(page);
    for (const cell of table.querySelectorAll('[data-page]:not(table)')) cell.hidden = Number(cell.dataset.page) !== page;
  };
  show(0);
  if (pages < 2) return;
  let page = 0;
  const timer = setInterval(() => {
    if (!table.isConnected) {
      clearInterval(timer);
      return;
    }
    page = (page + 1) % pages;
    show(page);
  }, PAGE_MS);
}

/** What one Corrupt Politician chose: only what they said yes to (Nakaw, Suhol, Tokhang). */
function corruptCell(plan) {
  const chosen = [
    plan.nakaw ? 'Nakaw' : null,
    plan.suhol ? 'Suhol' : null,
    plan.tokhang ? t('reveal.plan.tokhang', { target: plan.tokhang }) : null,
  ].filter(Boolean);
  return chosen.length ? chosen.join(' · ') : t('reveal.plan.nothing');
}

function corruptOutcome(year) {
  const done = [
    year.stolen ? t('reveal.stolen', { amount: year.stolen }) : t('reveal.stolen.none'),
    year.suhol ? t(`reveal.suhol.${year.suhol}`) : null,
    year.tokhang ? t(`reveal.tokhang.${year.tokhang.result}`, { target: who(year.tokhang.target) }) : null,
  ];
  return done.filter(Boolean).join(' · ');
}

function auditText(audit, key = 'reveal.audit') {
  return audit.project
    ? t(`${key}.${audit.kickback ? 'yes' : 'no'}`, { card: cardName(audit.project) })
    : t(`${key}.none`);
}

/** Why an Auto Jail was cancelled (R-25 step 6): the board's table says only that it was. */
const CANCELLED = new Set(['not_enough_spending', 'already_targeted', 'forced_vote_called', 'inactive', 'target_inactive']);

/** A name in a sentence of the catalog (isolated by `t`), or "nobody". */
function who(name) {
  return name ?? t('option.nobody');
}

function yearCard(year) {
  const lines = [];
  const line = (kind, icon, role, text, outcome = null) =>
    lines.push(
      h(
        'li',
        { class: `nights-line nights-${kind}`, data: { kind } },
        h('span', { class: 'nights-icon', 'aria-hidden': 'true', text: icon }),
        h('span', { class: 'nights-role', text: role }),
        h('span', { class: 'nights-text', text }),
        outcome ? h('span', { class: `nights-outcome ${outcome.class}`, text: outcome.text }) : null,
      ),
    );
  if (year.protect) {
    const { player, target } = year.protect;
    line('protect', '⚖', roleTitle('lawyer'), target ? t('reveal.protect', { player, target }) : t('reveal.protect.nobody', { player }));
  }
  if (year.investigate) {
    const { player, target, aligned } = year.investigate;
    line(
      'investigate',
      '🔍',
      roleTitle('ombudsperson'),
      target ? t('reveal.investigate', { player, target }) : t('reveal.investigate.nobody', { player }),
      aligned ? { class: `team-${aligned}`, text: teamName(aligned) } : null,
    );
  }
  for (const plan of year.corrupt) {
    line(
      'corrupt',
      '💰',
      roleTitle('corrupt_politician'),
      t('reveal.corrupt', { player: plan.player, plan: corruptCell(plan) }),
    );
  }
  if (year.corrupt.length) line('corrupt-outcome', '➜', '', corruptOutcome(year));
  for (const jail of year.auto_jail.filter((j) => j.target)) {
    line(
      'auto-jail',
      '🏗',
      roleTitle('good_politician'),
      t('reveal.auto_jail', { player: jail.player, target: jail.target }),
      { class: jail.result === 'jailed' ? 'done' : '', text: t(`reveal.auto_jail.${jail.result ?? 'none'}`) },
    );
  }
  if (year.audit) line('audit', '📋', roleTitle('coa'), auditText(year.audit));
  return h(
    'li',
    { testid: 'reveal-year', class: 'nights-year', data: { year: year.year } },
    h('h3', { text: `🌙 ${t('year.long', { year: year.year })}` }),
    h('ul', { class: 'nights-lines' }, lines.length ? lines : h('li', { class: 'muted-text', text: t('reveal.quiet') })),
  );
}

/**
 * The Corruption Fund, the true Kaban ng Bayan and the public Kaban figure the table saw,
 * at the start and at the end of every Year (the last: when the game ended), with the
 * Fund's target; a legend names each line and its last figure (never colour alone: the
 * lines are also solid, dashed and dotted).
 *
 * Like the analysis's chart, the lines and their dots are an SVG stretched over the plot
 * (strokes and dots keep their size); every word (the axis's figures, the Years) is HTML
 * beside it, sized by the stylesheet in the page's own type and placed by percentages of
 * the plot: drawn in the SVG's viewBox, they shrank with the chart (11 px on a 720p TV,
 * below the board's smallest body text).
 */
function fundChart(points, targets) {
  const lastYear = Math.max(1, ...points.map((p) => p.year));
  const series = [
    { key: 'kaban', label: t('reveal.chart.kaban'), class: 'kaban' },
    { key: 'kaban_public', label: t('reveal.chart.public'), class: 'public' },
    { key: 'corruption_fund', label: t('reveal.chart.fund'), class: 'fund' },
  ];
  const fundTarget = targets?.corruption_fund ?? 0;
  const values = [...points.flatMap((p) => series.map((s) => p[s.key])), fundTarget];
  const low = Math.min(0, ...values);
  const high = Math.max(10, ...values);
  const x = (year) => (100 * year) / lastYear; // % of the plot
  const y = (value) => (100 * (high - value)) / (high - low || 1);
  const every = lastYear <= 6 ? 1 : Math.ceil(lastYear / 6); // Years named on the axis: never crowding "Start"
  const step = [5, 10, 20, 25, 50, 100].find((s) => (high - low) / s <= 5) ?? 100;
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) ticks.push(v);
  const last = points[points.length - 1];
  const summary = series.map((s) => `${s.label}: ${points.map((p) => p[s.key]).join(', ')}`).join('; ');
  const rule = (value, cls) => placed(h('span', { class: `rule ${cls}` }), 'top', y(value));
  return h(
    'figure',
    { class: 'nights-chart' },
    h('figcaption', { text: `📈 ${t('reveal.chart.title')}` }),
    h(
      'div',
      { testid: 'fund-chart', class: 'fund-chart', role: 'img', 'aria-label': `${t('reveal.chart.title')}: ${summary}` },
      h(
        'div',
        { class: 'fund-y', 'aria-hidden': 'true' },
        ticks.map((value) => placed(h('span', { class: 'tick', text: String(value) }), 'top', y(value))),
      ),
      h(
        'div',
        { class: 'fund-area', 'aria-hidden': 'true' },
        ticks.map((value) => rule(value, value === 0 ? 'axis' : 'grid')),
        fundTarget ? rule(fundTarget, 'target') : null,
        h(
          'div',
          { class: 'fund-plot' },
          svg(
            'svg',
            { viewBox: '0 0 100 100', preserveAspectRatio: 'none' },
            series.map((s) => {
              const at = points.map((p) => `${x(p.year).toFixed(2)},${y(p[s.key]).toFixed(2)}`);
              return svg(
                'g',
                { class: `fund-line ${s.class}` },
                svg('path', { class: 'line', d: `M${at.join(' L')}` }),
                svg('path', { class: 'dot', d: at.map((xy) => `M${xy} h0`).join(' ') }), // (round caps: a dot that keeps its size)
              );
            }),
          ),
        ),
      ),
      h(
        'div',
        { class: 'fund-x', 'aria-hidden': 'true' },
        points
          .filter((p) => p.year % every === 0)
          .map((p) => placed(h('span', { class: 'tick', text: p.year ? String(p.year) : t('chart.start') }), 'left', x(p.year))),
      ),
    ),
    h(
      'ul',
      { class: 'chart-legend' },
      series.map((s) => h('li', { class: s.class }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), `${s.label}: ${last[s.key]}`)),
      fundTarget ? h('li', { class: 'target' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), t('reveal.chart.target', { n: fundTarget })) : null,
    ),
  );
}

