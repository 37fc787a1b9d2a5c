/**
 * The public record of the game as players read it: the timeline (newest first), the
 * announcement banner (the news of the latest update) and the Year-by-Year recap.
 * Entries are the server's text, shown as sent; private entries (`private: true`) are
 * left to the role card so an onlooker never reads them off a phone.
 */

import { h, renderIfChanged } from './dom.js';
import { entryText } from './words.js';
import { t } from './i18n.js';

/** Kinds of timeline entries worth a banner and the recap (claims are talk: timeline only). */
const NEWS = new Set([
  'player_returned', 'presidency_ended', 'tokhang_blocked', 'treasury_report', 'revenue',
  'candidates', 'vote_tally', 'president_elected', 'project_chosen', 'committee_named',
  'project_voted', 'witness_testimony', 'forced_vote_called', 'jailing_blocked',
  'player_jailed', 'player_eliminated', 'nobody_jailed', 'game_over', 'notice',
]);

/** Which entries a section shows: the moderator sees private ones too. */
function visible(entries, withPrivate) {
  return withPrivate ? entries : entries.filter((e) => !e.private);
}

/** The timeline, newest first (`withPrivate`: the moderator's sheet). */
export function timelineList(entries, { withPrivate = false, limit = 200 } = {}) {
  const shown = visible(entries, withPrivate).slice(-limit).reverse();
  return h(
    'ol',
    { testid: 'timeline', class: 'timeline', 'aria-label': t('timeline.title'), reversed: true },
    shown.map((entry) =>
      h(
        'li',
        { testid: 'timeline-entry', class: entry.private ? 'private' : null, data: { kind: entry.kind, year: entry.year } },
        // (no tag for what came before Year 1: the deal, the setup)
        entry.year > 0 ? [h('span', { class: 'year-tag', text: t('year.short', { year: entry.year }) }), ' '] : null,
        entry.private ? `🔒 ${audienceOf(entry)}` : null,
        entryText(entry),
      ),
    ),
  );
}

/** Who a private entry was for (the moderator's timeline names them). */
function audienceOf(entry) {
  const audience = entry.audience;
  if (!audience) return '';
  if (typeof audience === 'object') return `[${audience.player}] `;
  return `[${t(`audience.${audience}`)}] `;
}

/**
 * The announcement banner (`announcement`): the news of the latest batch of timeline
 * entries that had any, in one live region that stays in place (so screen readers read
 * each change aloud).
 */
export class NewsBanner {
  constructor() {
    this.news = [];
    this.element = h('div', { testid: 'announcement', class: 'announcement', role: 'status', 'aria-live': 'polite', hidden: true });
  }

  /** Show the news among `fresh` (the entries of the latest view or update), if any. */
  update(fresh) {
    const news = visible(fresh, false).filter((e) => NEWS.has(e.kind));
    if (news.length) this.news = news.slice(-4);
    this.element.hidden = this.news.length === 0;
    renderIfChanged(this.element, this.news, () => this.news.map((entry) => h('p', { text: `📣 ${entryText(entry)}` })));
  }
}

/** The Year-by-Year recap of the end screen (`recap` / `recap-year`). */
export function recap(entries) {
  const years = new Map();
  for (const entry of visible(entries, false)) {
    if (!NEWS.has(entry.kind)) continue;
    if (!years.has(entry.year)) years.set(entry.year, []);
    years.get(entry.year).push(entry);
  }
  return h(
    'div',
    { testid: 'recap', class: 'recap' },
    h('h3', { text: t('end.recap') }),
    h(
      'div',
      { class: 'recap-years' },
      [...years.entries()].map(([year, list]) =>
        h(
          'details',
          { testid: 'recap-year', data: { year }, open: year === Math.max(...years.keys()) },
          h('summary', { text: t('year.long', { year }) }),
          h('ul', {}, list.map((entry) => h('li', { text: entryText(entry) }))),
        ),
      ),
    ),
  );
}
