/**
 * The game's analysis on the end screens, like a chess site's analysis board: Year by Year,
 * how likely each player was Corrupt, and the decisive moments (`GET
 * /api/rooms/CODE/analysis`, the server's `korapsyon analyse` of the record; issue #20).
 *
 * The board draws every player's line over the Years from what the whole table could know
 * (the Corrupt's lines in their colour: did the table find them, and when?) with the most
 * decisive moments; a phone opens, in a fold, its own view's version: each player's line as
 * this seat saw it (a Corrupt player's: the table's, how well the team hid), most suspected
 * first, and every decisive moment (asked for when the
 * fold is first opened, so a table of phones does not set the server to work at the end
 * for folds nobody opens). The public view's is anyone's (a TV's board holds no token); a
 * player's own view, like the record, is asked for with this page's token of the room. It
 * is fetched once per page and view; a redraw meanwhile shows "working it out" and is
 * filled in when it comes.
 */

import { fitOptional, h, placed, svg } from './dom.js';
import { api } from './net.js';
import { tableToken } from './tokens.js';
import { roleTitle, t } from './i18n.js';
import { roleBadge } from './roles.js';

const asked = new Map(); // `${code}|${view}` -> {promise, data, failed}
const BOARD_MOMENTS = 3;

/**
 * The board's chart of every player's line (the public view's), and its top moments: as
 * many as the TV has room for at a readable size (each gives way by itself, the last first).
 */
export function tableAnalysis(room, view) {
  return analysisBlock(room, view, null, (data) => {
    const moments = momentList(view, pickMoments(data.moments, BOARD_MOMENTS));
    for (const moment of moments?.children ?? []) fitOptional(moment);
    return [lineChart(view, data), moments];
  });
}

/**
 * The phone's fold body, drawn (and asked of the server) only when the player opens the
 * fold: this seat's view (a spectator's or the host's: the public's). Null when this page
 * may not ask for it.
 */
export function myAnalysis(room, view) {
  // (a Corrupt player knew every side: their own view says nothing they did not know, the
  // table's says how well their team hid)
  const corrupt = view.you?.role === 'corrupt_politician';
  const me = corrupt ? null : view.you?.name ?? null;
  if (!mayAsk(room, me)) return null;
  const caption = corrupt ? 'analysis.caption.corrupt' : me ? 'analysis.caption.mine' : 'analysis.caption.public';
  return () => analysisBlock(room, view, me, (data) => [
    h('p', { class: 'hint', text: t(caption) }),
    playerRows(view, data),
    data.moments.length ? h('h3', { class: 'analysis-moments-title', text: t('analysis.moments') }) : null,
    momentList(view, pickMoments(data.moments, 12)),
  ]);
}

/** A player's own view is the table's, like the record: asked with this page's token. */
const mayAsk = (room, as) => !as || Boolean(tableToken(room.code)) || Boolean(room.lobby?.settings?.public_record);

function analysisBlock(room, view, as, draw) {
  const token = tableToken(room.code);
  const box = h('div', { testid: 'analysis', class: 'analysis', data: { view: as ?? 'public' } });
  const entry = fetchOnce(room.code, as, token);
  const fill = () => {
    if (entry.data) box.replaceChildren(...draw(entry.data).flat().filter(Boolean));
    else box.replaceChildren(h('p', { class: 'hint', text: t(entry.failed ? 'analysis.failed' : 'analysis.loading') }));
    box.dataset.state = entry.data ? 'done' : entry.failed ? 'failed' : 'loading';
  };
  fill();
  if (!entry.data && !entry.failed) entry.promise.then(fill);
  return box;
}

/** The analysis of one view, asked of the server once a page; a failed request is
 * forgotten, so the next drawing of the end screen asks again. */
function fetchOnce(code, as, token) {
  const key = `${code}|${as ?? ''}`;
  if (!asked.has(key)) {
    const entry = { data: null, failed: false, promise: null };
    const query = as ? `?as=${encodeURIComponent(as)}` : '';
    entry.promise = api('GET', `/api/rooms/${encodeURIComponent(code)}/analysis${query}`, undefined, token)
      .then((data) => { entry.data = data; })
      .catch(() => {
        entry.failed = true;
        asked.delete(key);
      });
    asked.set(key, entry);
  }
  return asked.get(key);
}

const percent = (p) => `${Math.round(p * 100)}%`;
const roleOf = (view, name) => view.players.find((p) => p.name === name)?.role ?? null;
const isCorrupt = (view, name) => roleOf(view, name) === 'corrupt_politician';

/**
 * One line per player over the Years (`analysis-chart`): the Corrupt's lines in their
 * colour, everyone else's in the Good team's; the lines that end high, or are a Corrupt's,
 * named at their end (nudged apart so that no two names overlap; those that cannot fit
 * give way, the Corrupt's last).
 *
 * The lines are an SVG stretched over the plot; every word (the percentages, the Years,
 * the names) is HTML beside it, sized by the stylesheet in the board's own type: drawn in
 * the SVG, it shrank with the chart (9 px on a 720p TV, unreadable from a sofa).
 */
function lineChart(view, data) {
  const years = data.years;
  if (!years.length) return null;
  const first = years[0].year;
  const last = years[years.length - 1].year;
  const x = (year) => (100 * (year - first)) / Math.max(1, last - first); // % of the plot
  const y = (p) => 100 * (1 - p);
  const every = Math.max(1, Math.ceil((last - first + 1) / 6)); // Years named on the axis
  const names = view.players.map((p) => p.name);
  const end = (name) => years[years.length - 1].corrupt[name] ?? 0;
  const order = [...names].sort((a, b) => Number(isCorrupt(view, a)) - Number(isCorrupt(view, b))); // the Corrupt on top
  const labelled = names.filter((name) => isCorrupt(view, name) || end(name) >= 0.5).sort((a, b) => end(b) - end(a));
  const summary = order.map((name) => `${name}: ${years.map((yr) => percent(yr.corrupt[name] ?? 0)).join(', ')}`).join('; ');
  const nameColumn = h(
    'div',
    { class: 'analysis-names', 'aria-hidden': 'true' },
    labelled.map((name) =>
      h('span', {
        class: `analysis-label team-${isCorrupt(view, name) ? 'bad' : 'good'}`,
        title: name,
        data: { at: 1 - end(name), keep: isCorrupt(view, name) ? 1 : 0 },
        text: clip(name),
      }),
    ),
  );
  new ResizeObserver(() => nudge(nameColumn)).observe(nameColumn);
  return h(
    'figure',
    { class: 'analysis-chart-box' },
    h('figcaption', { text: `🔎 ${t('analysis.title')}` }),
    h(
      'div',
      { testid: 'analysis-chart', class: 'analysis-chart', role: 'img', 'aria-label': `${t('analysis.title')}: ${summary}` },
      h(
        'div',
        { class: 'analysis-axis analysis-y', 'aria-hidden': 'true' },
        [1, 0.5, 0].map((p) => placed(h('span', { class: 'tick', text: percent(p) }), 'top', y(p))),
      ),
      h(
        'div',
        { class: 'analysis-plot', 'aria-hidden': 'true' },
        svg(
          'svg',
          { viewBox: '0 0 100 100', preserveAspectRatio: 'none' },
          [0, 0.5, 1].map((p) => svg('line', { x1: 0, x2: 100, y1: y(p), y2: y(p), class: p === 0 ? 'axis' : 'grid' })),
          order.map((name) => {
            const team = isCorrupt(view, name) ? 'bad' : 'good';
            const points = years.map((yr) => [x(yr.year), y(yr.corrupt[name] ?? 0)]);
            const d = points.map(([px, py], k) => `${k ? 'L' : 'M'}${px.toFixed(2)},${py.toFixed(2)}`).join(' ');
            return svg(
              'g',
              { class: `analysis-line team-${team}`, data: { name } },
              svg('title', { text: `${name}: ${years.map((yr) => percent(yr.corrupt[name] ?? 0)).join(' → ')}` }),
              svg('path', { d: points.length === 1 ? `${d} h0` : d }), // (one Year: a dot)
            );
          }),
        ),
      ),
      nameColumn,
      h(
        'div',
        { class: 'analysis-axis analysis-x', 'aria-hidden': 'true' },
        years.filter((yr) => (yr.year - first) % every === 0).map((yr) => placed(h('span', { class: 'tick', text: String(yr.year) }), 'left', x(yr.year))),
      ),
    ),
    h(
      'ul',
      { class: 'chart-legend' },
      h('li', { class: 'team-bad' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), t('analysis.legend.bad')),
      h('li', { class: 'team-good' }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), t('analysis.legend.good')),
    ),
  );
}


/**
 * The names at the lines' ends, each as near its line's end as it can be without two
 * overlapping or one leaving the plot: as many as fit (the Corrupt's first, then the
 * highest), pushed down from the top and then up from the foot. Drawn again whenever the
 * chart's size changes (the end screen is fitted to the TV).
 */
function nudge(column) {
  const labels = [...column.children];
  for (const label of labels) label.hidden = false;
  const height = column.clientHeight;
  const gap = labels[0]?.offsetHeight ?? 0;
  if (!height || !gap) return;
  const room = Math.max(0, Math.floor(height / gap) + 1); // (half a name may stand over each end)
  const kept = new Set([...labels].sort((a, b) => b.dataset.keep - a.dataset.keep).slice(0, room));
  const shown = labels.filter((label) => kept.has(label));
  for (const label of labels) label.hidden = !kept.has(label);
  const tops = [];
  let floor = -Infinity;
  for (const label of shown) {
    floor = Math.max(label.dataset.at * height - gap / 2, floor + gap, -gap / 2);
    tops.push(floor);
  }
  let ceiling = height - gap / 2;
  for (let i = shown.length - 1; i >= 0; i -= 1) {
    tops[i] = Math.min(tops[i], ceiling);
    ceiling = tops[i] - gap;
  }
  shown.forEach((label, i) => label.style.setProperty('top', `${tops[i]}px`));
}

const clip = (name) => (name.length > 13 ? `${name.slice(0, 12)}…` : name);

/** The phone's rows (`analysis-row`): each other player, most suspected at the end first. */
function playerRows(view, data) {
  const years = data.years;
  if (!years.length) return null;
  const end = years[years.length - 1].corrupt;
  const names = view.players.map((p) => p.name).filter((name) => name !== data.view);
  names.sort((a, b) => (end[b] ?? 0) - (end[a] ?? 0));
  return h(
    'ol',
    { class: 'analysis-rows' },
    names.map((name) => {
      const series = years.map((yr) => yr.corrupt[name] ?? 0);
      const role = roleOf(view, name);
      return h(
        'li',
        { testid: 'analysis-row', class: `analysis-row team-${isCorrupt(view, name) ? 'bad' : 'good'}`, data: { name, corrupt: end[name] ?? 0 } },
        h('div', { class: 'who' }, h('bdi', { class: 'name', text: name }), role ? roleBadge(role) : null),
        spark(series, name),
        h('span', { class: 'analysis-end', text: percent(end[name] ?? 0) }),
      );
    }),
  );
}

function spark(series, name) {
  const width = 96;
  const height = 24;
  const x = (k) => 2 + ((width - 4) * k) / Math.max(1, series.length - 1);
  const y = (p) => 2 + (height - 4) * (1 - p);
  return svg(
    'svg',
    { class: 'analysis-spark', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `${name}: ${series.map(percent).join(', ')}` },
    svg('line', { x1: 0, x2: width, y1: y(0.5), y2: y(0.5), class: 'grid' }),
    svg('path', { d: series.map((p, k) => `${k ? 'L' : 'M'}${x(k).toFixed(1)},${y(p).toFixed(1)}`).join(' ') }),
    svg('circle', { cx: x(series.length - 1), cy: y(series[series.length - 1]), r: 2.5 }),
  );
}

/**
 * The most telling moments, in the order they happened: the removals that went against the
 * evidence, then the largest single exposures and clearings, then the other removals.
 */
function pickMoments(moments, count) {
  const weight = (m) => {
    if (m.verdict === 'good_removed_against_evidence') return 3;
    if (m.kind === 'exposed' || m.kind === 'cleared') return 1 + Math.abs(m.after - m.before);
    return m.verdict === 'corrupt_caught' ? 1 : 0.5;
  };
  return [...moments]
    .map((m, order) => ({ m, order }))
    .sort((a, b) => weight(b.m) - weight(a.m) || a.order - b.order)
    .slice(0, count)
    .sort((a, b) => a.order - b.order)
    .map(({ m }) => m);
}

function momentList(view, moments) {
  if (!moments.length) return null;
  return h(
    'ul',
    { class: 'analysis-moments' },
    moments.map((m) => h('li', { testid: 'analysis-moment', data: { kind: m.kind, verdict: m.verdict ?? null }, text: momentText(m) })),
  );
}

function momentText(m) {
  const params = { year: m.year, player: m.player, role: roleTitle(m.role) };
  if (m.kind === 'exposed' || m.kind === 'cleared') {
    const key = `analysis.by.${m.by}`;
    const by = t(key) === key ? t('analysis.by.other') : t(key); // (a kind with no words yet)
    return t(`analysis.moment.${m.kind}`, { ...params, by, before: percent(m.before), after: percent(m.after) });
  }
  return t(`analysis.moment.${m.verdict}`, {
    ...params,
    removed: t(`analysis.removed.${m.kind}`),
    p: percent(m.corrupt ?? 0),
    other: m.most_suspected ?? '',
    q: percent(m.most_suspected_corrupt ?? 0),
  });
}
