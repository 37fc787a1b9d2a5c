/**
 * The public facts of the table, drawn the same way on the board, the grimoire and (in
 * small) the phone: the Year and step, the public Kaban ng Bayan, Approved
 * Spending against its target, the players with strikes and return Years
 * the President and term, the project, committee and tally,
 * and how many have voted - never who.
 */

import { h } from './dom.js';
import { stepTitle, t, tn } from './i18n.js';
import { roleBadge } from './roles.js';
import { cardName, nameList, pinText } from './words.js';

const STATUS_ICONS = { active: '●', suspended: '⛓', eliminated: '✖' };

/** The page's heading on the board and the moderator's screen: the Year and the step. */
export function yearAndStep(view) {
  return h(
    'h1',
    { class: 'year-step' },
    h('span', { testid: 'board-year', class: 'board-year', data: { year: view.year }, text: t('year.long', { year: view.year }) }),
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

/**
 * The latest public claim of each player (talk: `claim_made` entries of the public
 * timeline), by name: `{year, params}`.
 */
export function latestClaims(timeline) {
  const claims = new Map();
  for (const entry of timeline || []) {
    if (entry.kind === 'claim_made' && !entry.private) claims.set(entry.params.player, entry);
  }
  return claims;
}

/**
 * The players (`board-players`): status, name ("(you)" on a phone), the President, this
 * Year's committee and the candidates of an election tagged, strikes and
 * return Year, a revealed role, and pinned to the name the latest
 * public claim each made (`board-claim`), from `timeline`.
 */
export function playersList(view, timeline = []) {
  const me = view.viewer?.kind === 'player' ? view.viewer.name : null;
  const committee = new Set(view.project?.committee ?? []);
  const electing = view.step === 'elect' || view.step === 'elect_runoff';
  const candidates = new Set(electing ? view.ballot?.options ?? [] : []);
  const claims = latestClaims(timeline);
  return h(
    'ul',
    { testid: 'board-players', class: 'board-players', 'aria-label': t('board.players') },
    view.players.map((p) => {
      const president = view.president?.name === p.name;
      const claim = claims.get(p.name);
      const tags = [
        president ? h('span', { testid: 'player-tag', data: { tag: 'president' }, class: 'tag president', text: `🎖 ${t('board.president_tag')}` }) : null,
        committee.has(p.name) ? h('span', { testid: 'player-tag', data: { tag: 'committee' }, class: 'tag committee', text: `🏛 ${t('board.committee_tag')}` }) : null,
        candidates.has(p.name) ? h('span', { testid: 'player-tag', data: { tag: 'candidate' }, class: 'tag candidate', text: `🗳 ${t('board.candidate_tag')}` }) : null,
        p.strikes ? h('span', { class: 'tag strikes', text: `⚠ ${tn('board.strikes', p.strikes)}` }) : null,
        p.status === 'suspended' && p.returns_year ? h('span', { class: 'tag', text: t('board.returns', { year: p.returns_year }) }) : null,
        p.role ? roleBadge(p.role) : null,
      ].filter(Boolean);
      return h(
        'li',
        { testid: 'board-player', class: `board-player status-${p.status}${p.name === me ? ' self' : ''}`, data: { name: p.name, status: p.status } },
        h(
          'div',
          { class: 'who' },
          h('span', { class: 'status-icon', 'aria-hidden': 'true', text: STATUS_ICONS[p.status] || '' }),
          h('bdi', { class: 'name', text: p.name }),
          p.name === me ? h('span', { class: 'you', text: ` ${t('board.you')}` }) : null,
          p.status !== 'active' ? h('span', { class: 'sr-only', text: t(`status.${p.status}`) }) : null,
        ),
        tags.length ? h('div', { class: 'tags' }, tags) : null,
        claim
          ? h(
              'p',
              { testid: 'board-claim', class: 'claim-pin', data: { claim: claim.params.claim, year: claim.year } },
              h('span', { class: 'sr-only', text: `${t('pin.label')}: ` }),
              `💬 ${pinText(claim.params)}`,
              claim.year !== view.year ? h('span', { class: 'year-tag', text: ` · ${t('year.short', { year: claim.year })}` }) : null,
            )
          : null,
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
      ? h(
          'span',
          { class: 'figure' },
          h('bdi', { text: president.name }),
          president.name === me(view) ? ` ${t('board.you')}` : '',
          ` · ${t('board.term', { since: president.since, until: president.until })}`,
        )
      : h('span', { class: 'figure muted-text', text: t('board.vacant') }),
  );
}

/**
 * The project: the card offered or chosen, by name with its cost and committee
 * size, the committee (by name with `names`; the board tags them in the players list
 * instead) and the tally.
 */
export function projectInfo(view, { names = true } = {}) {
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
      : h('p', { text: t('board.offered', { cards: project.offered.map((c) => `${cardName(c.id)} (${t('card.cost', { cost: c.cost })})`).join(' / ') }) }),
    names && project.committee.length ? h('p', { text: t('board.committee', { names: nameList(project.committee.map((n) => (n === me(view) ? `${n} ${t('board.you')}` : n))) }) }) : null,
    h(
      'p',
      { testid: 'board-tally', class: result ? `tally ${result.succeeded ? 'pass' : 'fail'}` : 'tally', hidden: !result },
      result
        ? `${result.succeeded ? '✔' : '✖'} ${t(result.succeeded ? 'board.passed' : 'board.failed', { support: result.support, oppose: result.oppose })}`
        : '',
    ),
  );
}

function me(view) {
  return view.viewer?.kind === 'player' ? view.viewer.name : null;
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
