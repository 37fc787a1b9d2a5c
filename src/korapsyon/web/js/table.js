/**
 * The public facts of the table, drawn the same way on the board, the grimoire and (in
 * small) the phone: the Year and step, the public Kaban ng Bayan, Approved
 * Spending against its target, the players with strikes and return Years
 * the President and term, the project, committee and tally,
 * and how many have voted - never who.
 */

import { h } from './dom.js';
import { stepTitle, t } from './i18n.js';
import { roleBadge } from './roles.js';
import { cardName } from './words.js';

const STATUS_ICONS = { active: '●', suspended: '⛓', eliminated: '✖' };

export function yearAndStep(view) {
  return h(
    'div',
    { class: 'year-step' },
    h('span', { testid: 'board-year', class: 'board-year', text: t('year.long', { year: view.year }) }),
    h('span', { testid: 'board-step', class: 'board-step', data: { step: view.step ?? '' }, text: view.step ? stepTitle(view.step) : t('step.over') }),
  );
}

export function trackers(view) {
  const spent = view.public_spending;
  const target = view.targets.public_spending;
  const fill = h('div', { class: 'bar-fill' });
  fill.style.width = `${Math.max(0, Math.min(100, (100 * spent) / target))}%`; // CSSOM: allowed by the CSP
  return h(
    'div',
    { class: 'trackers' },
    h(
      'div',
      { testid: 'board-kaban', class: 'tracker kaban', data: { value: view.kaban_public } },
      h('span', { class: 'label', text: `🏦 ${t('board.kaban')}` }),
      h('span', { class: 'figure', text: String(view.kaban_public) }),
    ),
    h(
      'div',
      { testid: 'board-spending', class: 'tracker spending', data: { value: spent, target } },
      h('span', { class: 'label', text: `🏗 ${t('board.spending')}` }),
      h('span', { class: 'figure', text: `${spent} / ${target}` }),
      h(
        'div',
        { class: 'bar', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': target, 'aria-valuenow': spent, 'aria-label': t('board.spending') },
        fill,
      ),
    ),
  );
}

export function playersList(view) {
  return h(
    'ul',
    { testid: 'board-players', class: 'board-players', 'aria-label': t('board.players') },
    view.players.map((p) => {
      const president = view.president?.name === p.name;
      return h(
        'li',
        { testid: 'board-player', class: `board-player status-${p.status}`, data: { name: p.name, status: p.status } },
        h('span', { class: 'status-icon', 'aria-hidden': 'true', text: STATUS_ICONS[p.status] || '' }),
        h('bdi', { class: 'name', text: p.name }),
        president ? h('span', { class: 'tag president', text: `🎖 ${t('board.president_tag')}` }) : null,
        p.strikes ? h('span', { class: 'tag strikes', text: `⚠ ${t('board.strikes', { n: p.strikes })}` }) : null,
        p.status === 'suspended' && p.returns_year ? h('span', { class: 'tag', text: t('board.returns', { year: p.returns_year }) }) : null,
        p.status !== 'active' ? h('span', { class: 'sr-only', text: t(`status.${p.status}`) }) : null,
        p.role ? roleBadge(p.role) : null,
      );
    }),
  );
}

export function presidentInfo(view) {
  const president = view.president;
  return h(
    'div',
    { testid: 'board-president', class: 'board-president' },
    h('span', { class: 'label', text: `🎖 ${t('board.president')}` }),
    president
      ? h('span', { class: 'figure', text: `${president.name} · ${t('board.term', { since: president.since, until: president.until })}` })
      : h('span', { class: 'figure muted-text', text: t('board.vacant') }),
  );
}

export function projectInfo(view) {
  const project = view.project;
  if (!project) return h('div', { testid: 'board-project', class: 'board-project', hidden: true });
  const card = project.card ? project.offered.find((c) => c.id === project.card) : null;
  const result = project.result;
  return h(
    'div',
    { testid: 'board-project', class: 'board-project' },
    h('span', { class: 'label', text: `📜 ${t('board.project')}` }),
    card
      ? h('p', { class: 'figure', text: `${cardName(card.id)} · ${t('card.cost', { cost: card.cost })} · ${t('card.committee', { size: project.committee_size ?? card.committee })}` })
      : h('p', { text: t('board.offered', { cards: project.offered.map((c) => `${c.name} (${c.cost})`).join(' / ') }) }),
    project.committee.length ? h('p', { text: t('board.committee', { names: project.committee.join(', ') }) }) : null,
    h(
      'p',
      { testid: 'board-tally', class: result ? `tally ${result.succeeded ? 'pass' : 'fail'}` : 'tally', hidden: !result },
      result
        ? `${result.succeeded ? '✔' : '✖'} ${t(result.succeeded ? 'board.passed' : 'board.failed', { support: result.support, oppose: result.oppose })}`
        : '',
    ),
  );
}

/** The steps where a group votes (the President's choices and the discussion are not votes). */
const VOTES = new Set(['stand', 'elect', 'elect_runoff', 'committee_vote', 'witness_vote', 'forced_jail_vote', 'jail_vote', 'jail_runoff']);

/**
 * How many have voted in this step, never who (and nothing in the Hidden Phase: the
 * server sends no count there, R-70).
 */
export function votedCount(view) {
  const ballot = view.ballot;
  const counted = ballot && ballot.cast !== undefined && ballot.voters && VOTES.has(view.step);
  return h(
    'div',
    { testid: 'board-voted', class: 'board-voted', data: counted ? { cast: ballot.cast, of: ballot.voters.length } : {}, hidden: !counted },
    counted ? `🗳 ${t('board.voted', { cast: ballot.cast, of: ballot.voters.length })}` : '',
  );
}
