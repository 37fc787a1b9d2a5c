/**
 * The game's own words, in the page's language: the server sends facts (a timeline entry's
 * `kind` and `params`, the script's `cue`, an error's `code`, role and card ids), never
 * English sentences, and this module words them from the catalogs. Every name it puts in
 * a sentence is isolated (FSI … PDI), so a right-to-left name never reorders the text.
 */

import { language, roleTitle, stepTitle, t } from './i18n.js';

/** The steps that are votes: ended early, those who had not voted did not vote. */
export const BALLOTS = new Set(['elect', 'elect_runoff', 'committee_vote', 'witness_vote', 'forced_jail_vote', 'jail_vote', 'jail_runoff']);

/** The votes whose tally counts "yes" and "no" (R-35's Witness vote, the forced vote). */
const YES_NO_VOTES = new Set(['witness_vote', 'forced_jail_vote']);

/** A project card's name. */
export function cardName(id) {
  return id ? t(`card.name.${id}`) : '';
}

/** A card's name with its cost when known ("Airport Terminal Upgrade (cost 6)"). */
export function cardWithCost(id, cost) {
  return cost === undefined || cost === null ? cardName(id) : t('card.with_cost', { card: cardName(id), cost });
}

/** A team's name (`good`, `bad`). */
export function teamName(team) {
  return t(`team.${team}`);
}

/** A role's one-line goal. */
export function goalText(role) {
  return t(`goal.${role}`);
}

/** Names as one list, each isolated on its own. */
export function nameList(names) {
  const isolated = (names || []).map((name) => `\u2068${name}\u2069`);
  // "Ana, Ben and Cris" / "Ana, Ben, at Cris" where the browser knows how (a list read
  // aloud at a table: "a runoff between Ana, Ben" read like a slip)
  return typeof Intl.ListFormat === 'function' ? new Intl.ListFormat(language(), { type: 'conjunction' }).format(isolated) : isolated.join(', ');
}

/** The line of a timeline entry (`{year, kind, params}`). */
export function entryText(entry) {
  const p = entry.params || {};
  const k = entry.kind;
  switch (k) {
    case 'game_started':
      return t('tl.game_started', { n: p.players.length, spending: p.public_spending_target, fund: p.corruption_fund_target, kaban: p.kaban_start });
    case 'role_dealt':
      return t('tl.role_dealt', { role: roleTitle(p.role), goal: goalText(p.role) });
    case 'team_revealed':
      return t(`tl.team_revealed.${p.role}`, { names: nameList(p.members) });
    case 'step_started':
      return p.step === 'hidden' ? t('tl.step_started.hidden') : t('tl.step_started.runoff', { names: nameList(p.options) });
    case 'action_taken':
      return t(`tl.action_taken.${p.action}`);
    case 'protection_set':
      return p.target ? t('tl.protection_set', { target: p.target }) : t('tl.protection_set.nobody');
    case 'investigation_result':
      return t('tl.investigation_result', { target: p.target, team: teamName(p.aligned) });
    case 'not_paid':
      return t(`tl.not_paid.${p.ability}`, { cost: p.cost });
    case 'auto_jail_used':
      return t('tl.auto_jail_used', { target: p.target, cost: p.cost, spending: p.public_spending });
    case 'auto_jail_cancelled':
      return t(`tl.auto_jail_cancelled.${p.reason}`, { target: p.target });
    case 'audit_delivered':
      return p.project ? t('tl.audit_delivered', { card: cardName(p.project), kickback: t(p.kickback ? 'tl.yes' : 'tl.no') }) : t('tl.audit_delivered.none');
    case 'treasury_report':
      return p.decrease === null ? t('tl.treasury_report.none') : t('tl.treasury_report', { decrease: p.decrease, kaban: p.kaban_public });
    case 'revenue':
      return t('tl.revenue', { amount: p.amount, kaban: p.kaban_public });
    case 'candidates':
      return p.nobody_stood ? t('tl.candidates.nobody') : t('tl.candidates', { names: nameList(p.candidates) });
    case 'vote_tally': {
      const vote = t(`tl.vote.${p.step}`);
      if (!p.tally.length) return t('tl.vote_tally.none', { vote, abstained: p.abstained });
      // (a yes/no vote's tally counts "yes" and "no", words to translate; any other
      // tally counts names, which a player may have chosen to be "yes")
      const word = (name) => (YES_NO_VOTES.has(p.step) ? t(`tl.vote_tally.${name}`) : name);
      const counts = p.tally.map(([name, count]) => t('tl.vote_tally.count', { name: word(name), count })).join(', ');
      return t('tl.vote_tally', { vote, counts, abstained: p.abstained });
    }
    case 'president_elected':
      return t(p.by_lots ? 'tl.president_elected.lots' : 'tl.president_elected', { president: p.president, year: entry.year, until: p.term_end });
    case 'project_offered':
      return t('tl.project_offered', { president: p.president, small: cardWithCost(p.small, p.small_cost), large: cardWithCost(p.large, p.large_cost) });
    case 'project_chosen':
      return t('tl.project_chosen', { card: cardWithCost(p.card, p.cost) });
    case 'committee_named':
      return t('tl.committee_named', { card: cardName(p.card), names: nameList(p.members) });
    case 'project_voted':
      return t(p.succeeded ? 'tl.project_voted.passed' : 'tl.project_voted.failed', {
        support: p.support, oppose: p.oppose, card: cardName(p.card), cost: p.cost, spending: p.public_spending,
      });
    case 'kickback':
      return t('tl.kickback', { card: cardName(p.card), amount: p.amount });
    case 'claim_made':
      return claimText(p);
    case 'player_jailed': {
      const cause = t(`tl.cause.${p.cause}`);
      return p.returns_year === null
        ? t('tl.player_jailed', { player: p.player, cause, strikes: p.strikes })
        : t('tl.player_jailed.suspended', { player: p.player, cause, strikes: p.strikes, returns: p.returns_year });
    }
    case 'player_eliminated': {
      const cause = t(`tl.cause.${p.cause}`);
      return p.role ? t('tl.player_eliminated.role', { player: p.player, cause, role: roleTitle(p.role) }) : t('tl.player_eliminated', { player: p.player, cause });
    }
    case 'year_started':
      return t('tl.year_started', { year: entry.year });
    case 'year_ended':
      return t('tl.year_ended', { year: entry.year, spending: p.public_spending });
    case 'game_over':
      return t('tl.game_over', { winner: t(`end.winner.${p.winner}`), reason: t(`end.reason.${p.reason}`) });
    case 'notice':
      return noticeText(p);
    default: // every other kind names its facts as they are
      return t(`tl.${k}`, p);
  }
}

/** The server's notices to the table (the `notice` channel). */
function noticeText(p) {
  if (p.kind === 'step_ended_early') {
    // (who stands and the President's picks are no votes: there the others got the default)
    const how = { hidden: 'night', discussion: 'discussion', committee_vote: 'committee' }[p.step] ?? (BALLOTS.has(p.step) ? 'vote' : 'other');
    return t(`notice.step_ended_early.${how}.${p.by}`, { step: stepTitle(p.step), cast: p.cast, of: p.of });
  }
  if (p.kind === 'stand_in') return t(`notice.stand_in.${p.by}.${p.why}`, { player: p.player });
  if (p.kind === 'stand_in_ended') return t(`notice.stand_in_ended.${p.why}`, { player: p.player });
  return t(`notice.${p.kind}`, p);
}

/**
 * A claim as pinned next to its player's name (the player is the name it is pinned to):
 * "claims to be the Lawyer", "suspects Ana".
 */
export function pinText(p) {
  if (p.claim === 'role') return t('pin.role', { role: roleTitle(p.role) });
  if (p.claim === 'audit') return t(`pin.audit.${p.kickback}`);
  if (p.claim === 'investigation') return t('pin.investigation', { target: p.target, team: teamName(p.aligned) });
  return t(`pin.${p.claim}`, { target: p.target });
}

function claimText(p) {
  if (p.claim === 'role') return t('tl.claim_made.role', { player: p.player, role: roleTitle(p.role) });
  if (p.claim === 'audit') return t(`tl.claim_made.audit.${p.kickback}`, { player: p.player });
  if (p.claim === 'investigation') return t('tl.claim_made.investigation', { player: p.player, target: p.target, team: teamName(p.aligned) });
  return t(`tl.claim_made.${p.claim}`, { player: p.player, target: p.target });
}

/** The moderator's line for the script's `cue` (`{key, params}`). */
export function cueText(cue) {
  if (!cue) return '';
  const p = cue.params || {};
  switch (cue.key) {
    case 'elect':
    case 'elect_runoff':
    case 'jail_runoff':
      return t(`cue.${cue.key}`, { names: nameList(p.candidates) });
    case 'pick_project':
      return t('cue.pick_project', { president: p.president, small: cardName(p.small), large: cardName(p.large) });
    case 'committee_vote':
      return t('cue.committee_vote', { names: nameList(p.members), card: cardName(p.card) });
    case 'game_over':
      return t('cue.game_over', { winner: t(`end.winner.${p.winner}`), reason: t(`end.reason.${p.reason}`) });
    default:
      return t(`cue.${cue.key}`, p);
  }
}

/**
 * What went wrong, in the page's language: the catalog's line for the error's stable
 * `code` (the server's and the rules'), or the server's own message for a code the
 * catalog does not know.
 */
export function errorText(error) {
  const key = `error.${error?.code}`;
  const line = t(key);
  return line === key ? error?.message || String(error) : line;
}
