/**
 * The game's analysis on the end screens, like a chess site's analysis board: Year by Year,
 * how likely each player was Corrupt, and the decisive moments (`GET
 * /api/rooms/CODE/analysis`, the server's `korapsyon analyse` of the record; issue #20).
 *
 * The board draws every player's line over the Years from what the whole table could know
 * (the Corrupt's lines in their colour: did the table find them, and when?) with the most
 * decisive moments; a phone opens, in a fold, its own view's version: each player's line as
 * this seat saw it (a Corrupt player's: the table's, how well the team hid), most suspected
 * first, and up to twelve decisive moments (asked for when the
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
 * many as the TV has room for at a readable size. Each may give way by itself, the least
 * telling first: they stand in the list most telling first (board.js hides the last
 * first) and are shown in the order they happened (each item's CSS order, the list being
 * a grid).
 */
export function tableAnalysis(room, view) {
  return analysisBlock(room, view, null, (data) => {
    const picked = pickMoments(data.moments, BOARD_MOMENTS, view);
    const moments = momentList(view, data, [...picked].sort((a, b) => a.rank - b.rank));
    for (const moment of moments?.children ?? []) fitOptional(moment);
    return [lineChart(view, data), moments];
  });
}

/**
 * The phone's fold body, drawn (and asked of the server) only when the player opens the
 * fold: this seat's view (a spectator's or the host's: the public's). Null when this page
 * may not ask for it. Its `title` is the fold's: a Corrupt player's is the table's view.
 */
export function myAnalysis(room, view) {
  // (a Corrupt player knew every side: their own view says nothing they did not know, the
  // table's says how well their team hid)
  const corrupt = view.you?.role === 'corrupt_politician';
  const me = corrupt ? null : view.you?.name ?? null;
  if (!mayAsk(room, me)) return null;
  const caption = corrupt ? 'analysis.caption.corrupt' : me ? 'analysis.caption.mine' : 'analysis.caption.public';
  const body = () => analysisBlock(room, view, me, (data) => [
    h('p', { class: 'hint', text: t(caption) }),
    playerRows(view, data),
    data.moments.length ? h('h3', { class: 'analysis-moments-title', text: t('analysis.moments') }) : null,
    momentList(view, data, pickMoments(data.moments, 12, view)),
  ]);
  return Object.assign(body, { title: corrupt ? t('analysis.fold.table') : null });
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

/**
 * The phone's rows (`analysis-row`): each player, most suspected at the end first; in a
 * player's own view all but themselves, in the table's view (a Corrupt player's) their
 * own row too, marked "(you)".
 */
function playerRows(view, data) {
  const years = data.years;
  if (!years.length) return null;
  const end = years[years.length - 1].corrupt;
  const me = view.you?.name ?? null;
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
        { testid: 'analysis-row', class: `analysis-row team-${isCorrupt(view, name) ? 'bad' : 'good'}`, data: { name, corrupt: end[name] ?? 0, you: name === me ? 1 : null } },
        h(
          'div',
          { class: 'who' },
          name === me ? markedName(name) : h('bdi', { class: 'name', text: name }),
          role ? roleBadge(role) : null,
        ),
        spark(series, name),
        h('span', { class: 'analysis-end', text: percent(end[name] ?? 0) }),
      );
    }),
  );
}

/** The player's own name with "(you)", the mark kept whole when a long name is cut short
 * (CSSOM: allowed by the CSP). */
function markedName(name) {
  return h('span', { class: 'name you' }, h('bdi', { text: name }), h('span', { class: 'you-mark', text: `\u00a0${t('analysis.you_mark')}` }));
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
 * The moments that tell the game's story, at most `count`, in the order they happened,
 * each with its `rank` (0: the most telling). First the best of each kind, in this order:
 * the catch that ended the game, a removal against the evidence, an exposure or clearing
 * that found the truth (a Corrupt exposed, a Good player cleared), another catch, one
 * that misled; then the rest by weight. A removal against the evidence that points at the
 * same most suspected player as an earlier one weighs less (the table kept missing one
 * player: told once), and a removal that merely lost a Good player weighs least.
 */
export function pickMoments(moments, count, view) {
  const last = moments.length - 1;
  const pointed = new Set();
  const scored = moments.map((m, order) => {
    const jump = Math.abs((m.after ?? 0) - (m.before ?? 0));
    const corrupt = m.role === 'corrupt_politician';
    let kind = 'lost';
    let weight = 0.5;
    if (m.verdict === 'corrupt_caught') {
      const ended = order === last && m.kind === 'eliminated' && view?.outcome?.reason === 'corrupt_purge';
      kind = ended ? 'end' : 'catch';
      weight = ended ? 10 : m.kind === 'eliminated' ? 4 : 3;
    } else if (m.verdict === 'good_removed_against_evidence') {
      const again = pointed.has(m.most_suspected);
      pointed.add(m.most_suspected);
      kind = again ? 'again' : 'against';
      weight = (again ? 1 : 3) + (m.most_suspected_corrupt ?? 0) - (m.corrupt ?? 0);
    } else if (m.kind === 'exposed' || m.kind === 'cleared') {
      const truth = (m.kind === 'exposed') === corrupt;
      kind = truth ? 'telling' : 'misled';
      weight = (truth ? 2 : 1) + jump;
    }
    return { m, order, kind, weight };
  });
  const byWeight = [...scored].sort((a, b) => b.weight - a.weight || a.order - b.order);
  const chosen = [];
  for (const kind of ['end', 'against', 'telling', 'catch', 'misled']) {
    const best = byWeight.find((s) => s.kind === kind);
    if (best && chosen.length < count) chosen.push(best);
  }
  for (const s of byWeight) if (chosen.length < count && !chosen.includes(s)) chosen.push(s);
  return chosen
    .map((s, rank) => ({ ...s.m, rank, order: s.order }))
    .sort((a, b) => a.order - b.order);
}

/** The moments in words (`analysis-moment`), each shown in the order it happened (its CSS
 * order: the list may stand in another, the board's most telling first). */
function momentList(view, data, moments) {
  if (!moments.length) return null;
  const me = data.view === 'public' ? view.you?.name ?? null : data.view;
  return h(
    'ul',
    { class: 'analysis-moments' },
    moments.map((m) => {
      const item = h('li', { testid: 'analysis-moment', data: { kind: m.kind, verdict: m.verdict ?? null, rank: m.rank }, text: momentText(m, me) });
      item.style.setProperty('order', String(m.order)); // (CSSOM: allowed by the CSP)
      return item;
    }),
  );
}

/** One moment in words (as `korapsyon analyse` words it: cli/analyse.py `_moment`); the
 * player whose phone it is is "you" beside their name. */
function momentText(m, me = null) {
  const role = m.player === me ? `${roleTitle(m.role)}, ${t('analysis.you')}` : roleTitle(m.role);
  const params = { year: m.year, player: m.player, role };
  if (m.kind === 'exposed' || m.kind === 'cleared') {
    return t(`analysis.moment.${m.kind}`, { ...params, by: byWords(m), before: percent(m.before), after: percent(m.after) });
  }
  return t(`analysis.moment.${m.verdict}`, {
    ...params,
    removed: t(`analysis.removed.${m.kind}`),
    p: percent(m.corrupt ?? 0),
    other: m.most_suspected ?? '',
    q: percent(m.most_suspected_corrupt ?? 0),
  });
}

/** What moved the player: whose, when the moment says (a claimant, a President...). */
function byWords(m) {
  const known = (key, params) => (t(key, params) === key ? null : t(key, params)); // (a kind with no words yet)
  return (m.by_player && known(`analysis.by_player.${m.by}`, { who: m.by_player })) ?? known(`analysis.by.${m.by}`) ?? t('analysis.by.other');
}
