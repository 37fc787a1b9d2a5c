/**
 * The board's full-screen reveals: each result the table waits for - the treasury report
 * the election, the President's project and the committee's vote,
 * a Witness, a jail vote and who was jailed or eliminated, with the role when the
 * rules reveal it (R-36, R-40, R-41; Tokhang and Auto Jail after the night, R-30), the
 * end of a Year and the game's end (R-50) - shown big over the board for a few seconds,
 * then the board again. A tap or a key closes it at once; the next result replaces it.
 *
 * One update of the game may hold several results (the jail vote, then the Year's end):
 * they are one reveal with one part each (`reveal-item`, `data-kind`), shown a little
 * longer. Only updates reveal: a board opened or reconnected mid-game shows the board.
 * The reveal covers the board below its top bar, so the timer and the host's controls
 * stay in view and in reach (ending the discussion is never behind a reveal), and a tap
 * meant to close it lands on nothing else.
 */

import { h } from './dom.js';
import { t } from './i18n.js';
import { roleBadge } from './roles.js';
import { latestReport, treasuryYears } from './chart.js';
import { cardName, entryText } from './words.js';

const SECONDS = 7; // one result
const MORE_SECONDS = 4; // each further result in the same reveal
const LONGEST = 20;

const ICONS = {
  treasury: '🧾', election: '🎖', project: '📜', committee: '🏛', witness: '🧑‍⚖️',
  jail: '⛓', night: '🌙', year: '📅', game_over: '🏁',
};

const JAIL_STEPS = new Set(['jail_vote', 'jail_runoff', 'witness_vote', 'forced_jail_vote']);

/** Which reveal an entry belongs to (undefined: none). */
function kindOf(entry) {
  const p = entry.params || {};
  switch (entry.kind) {
    case 'treasury_report':
      return p.decrease === null ? undefined : 'treasury';
    case 'president_elected':
      return 'election';
    case 'vote_tally':
      return p.step === 'elect' || p.step === 'elect_runoff' ? 'election' : JAIL_STEPS.has(p.step) ? 'jail' : undefined;
    case 'step_started':
      return p.step === 'elect_runoff' ? 'election' : p.step === 'jail_runoff' ? 'jail' : undefined;
    case 'project_chosen':
      return 'project';
    case 'project_voted':
      return 'committee';
    case 'witness_testimony':
      return 'witness';
    case 'player_jailed':
    case 'player_eliminated':
    case 'jailing_blocked':
      return p.cause === 'tokhang' || p.cause === 'auto_jail' ? 'night' : 'jail';
    case 'tokhang_blocked':
      return 'night';
    case 'nobody_jailed':
      return 'jail';
    case 'year_ended':
      return 'year';
    case 'game_over':
      return 'game_over';
    default:
      return undefined;
  }
}

/** The results among `entries` (public ones), in order, each with its entries. */
export function results(entries) {
  const items = new Map();
  for (const entry of entries) {
    if (entry.private) continue;
    const kind = kindOf(entry);
    if (!kind) continue;
    // A blocked jailing carries no cause: after a vote's tally it is the vote's
    const where = entry.kind === 'jailing_blocked' && items.has('jail') ? 'jail' : kind;
    if (!items.has(where)) items.set(where, []);
    items.get(where).push(entry);
  }
  return [...items.entries()].map(([kind, list]) => ({ kind, entries: list }));
}

export class Reveal {
  constructor() {
    this.timer = null;
    this.element = h('div', {
      testid: 'board-reveal',
      class: 'reveal',
      role: 'dialog',
      'aria-modal': 'false',
      'aria-label': t('reveal.label'),
      hidden: true,
      onclick: () => this.close(),
    });
    document.addEventListener('keydown', (event) => {
      if (!this.element.hidden && !event.repeat) this.close();
    });
  }

  /** Reveal the results among `fresh` (the entries of the latest update), if any. */
  show(fresh, view, timeline) {
    const found = results(fresh);
    if (!found.length) return;
    const el = this.element;
    el.dataset.kinds = found.map((r) => r.kind).join(' ');
    el.replaceChildren(
      h('div', { class: `reveal-items count-${Math.min(found.length, 3)}` }, found.map((r) => item(r, view, timeline))),
      h('p', { class: 'reveal-close', text: t('reveal.close') }),
    );
    el.hidden = false;
    clearTimeout(this.timer);
    const seconds = Math.min(LONGEST, SECONDS + MORE_SECONDS * (found.length - 1) + (found.some((r) => r.kind === 'game_over') ? 5 : 0));
    this.timer = setTimeout(() => this.close(), seconds * 1000);
  }

  close() {
    clearTimeout(this.timer);
    this.element.hidden = true;
  }
}

/** One result (`reveal-item`, `data-kind`): a title, the headline in big, then its lines. */
function item({ kind, entries }, view, timeline) {
  const { title, big, lines = [], badge = null, tone = '' } = wording(kind, entries, view, timeline);
  return h(
    'section',
    { testid: 'reveal-item', class: `reveal-item ${tone}`, data: { kind } },
    h('h2', { class: 'reveal-title', text: `${ICONS[kind] || ''} ${title}` }),
    h('p', { class: big.length > 48 ? 'reveal-big long' : 'reveal-big', text: big }),
    badge ? h('p', { class: 'reveal-badge' }, badge) : null,
    lines.filter(Boolean).map((line) => h('p', { class: 'reveal-line', text: line })),
  );
}

function find(entries, kind) {
  return entries.find((e) => e.kind === kind);
}

function spending(view) {
  return t('reveal.spending', { spent: view.public_spending, target: view.targets.public_spending });
}

/** What a result says: the timeline's own lines, with the one that matters made big. */
function wording(kind, entries, view, timeline) {
  const lines = (skip) => entries.filter((e) => e !== skip).map(entryText);
  switch (kind) {
    case 'treasury': {
      const report = latestReport(treasuryYears(view, timeline));
      const entry = find(entries, 'treasury_report');
      if (!report) return { title: t('treasury.title'), big: entryText(entry) };
      const built = report.cards.length ? report.cards.map(cardName).join(', ') : t('treasury.none_built');
      const unexplained = report.decrease - report.cost;
      return {
        title: t('treasury.title_year', { year: report.year }),
        big: `${t('treasury.decrease')}: ${report.decrease}`,
        tone: unexplained > 0 ? 'bad' : '',
        lines: [
          `${t('treasury.projects')} (${built}): − ${report.cost}`,
          `${t('treasury.unexplained')}: ${unexplained}`,
          t('treasury.hint'),
        ],
      };
    }
    case 'election': {
      const elected = find(entries, 'president_elected');
      const runoff = find(entries, 'step_started');
      const headline = elected || runoff || entries[0];
      return { title: t('reveal.election'), big: entryText(headline), lines: lines(headline), tone: 'good' };
    }
    case 'project': {
      const p = find(entries, 'project_chosen').params;
      const offered = view.project?.offered?.find((c) => c.id === p.card);
      const size = view.project?.committee_size ?? offered?.committee;
      return {
        title: t('reveal.project'),
        big: cardName(p.card),
        lines: [[p.cost !== undefined ? t('card.cost', { cost: p.cost }) : null, size ? t('card.committee', { size }) : null].filter(Boolean).join(' · ')],
      };
    }
    case 'committee': {
      const entry = find(entries, 'project_voted');
      const p = entry.params;
      return {
        title: `${t('reveal.committee')}: ${cardName(p.card)}`,
        big: `${p.succeeded ? '✔' : '✖'} ${t(p.succeeded ? 'board.passed' : 'board.failed', { support: p.support, oppose: p.oppose })}`,
        tone: p.succeeded ? 'good' : 'bad',
        lines: [entryText(entry), spending(view)],
      };
    }
    case 'witness':
      return { title: t('reveal.witness'), big: entryText(entries[0]), tone: 'bad' };
    case 'jail':
    case 'night': {
      const tally = find(entries, 'vote_tally');
      const outcome = entries.filter((e) => e !== tally);
      const eliminated = outcome.find((e) => e.kind === 'player_eliminated' && e.params.role);
      const big = outcome.length ? outcome.map(entryText).join(' ') : tally ? entryText(tally) : '';
      return {
        title: kind === 'night' ? t('reveal.night') : tally ? t(`tl.vote.${tally.params.step}`) : t('tl.vote.jail_vote'),
        big,
        badge: eliminated ? roleBadge(eliminated.params.role) : null,
        tone: outcome.some((e) => e.kind === 'player_jailed' || e.kind === 'player_eliminated') ? 'bad' : '',
        lines: tally && outcome.length ? [entryText(tally)] : [],
      };
    }
    case 'year': {
      const entry = entries[0];
      return { title: t('reveal.year', { year: entry.year }), big: spending(view), lines: [view.president ? `🎖 \u2068${view.president.name}\u2069 · ${t('board.term', { since: view.president.since, until: view.president.until })}` : null] };
    }
    case 'game_over': {
      const p = entries[0].params;
      return { title: t('step.over'), big: t(`end.winner.${p.winner}`), lines: [t(`end.reason.${p.reason}`)], tone: p.winner === 'bad' ? 'bad' : p.winner === 'good' ? 'good' : '' };
    }
    default:
      return { title: '', big: lines(null).join(' ') };
  }
}
