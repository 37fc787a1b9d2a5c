/**
 * The grimoire (`/moderator?room=CODE`, R-71): for the human moderator of a room
 * created with one. Everything the moderator view holds - the Corruption Fund, the true
 * Kaban ng Bayan, every role, the pending night choices and who is still waited for -
 * with the script line to read aloud, the timer controls (R-72) and the discussion's
 * close (R-35). The moderator token comes from room creation.
 */

import { actorName, setBar, setWaiting, waitingText } from './bar.js';
import { Fold, byTestId, h, renderIfChanged, rerender, withNames } from './dom.js';
import { endScreen } from './endscreen.js';
import { cardName, cueText } from './words.js';
import { language, t } from './i18n.js';
import { roleBadge } from './roles.js';
import { runPage } from './shell.js';
import { playersList, presidentInfo, projectInfo, trackers, votedCount, yearAndStep } from './table.js';
import { Chat } from './talk.js';
import { Countdown, hostControls } from './timer.js';
import { timelineList } from './timeline.js';
import { drawWaiting, lobbyLine } from './waiting.js';

class Grimoire {
  constructor(room, tokens) {
    this.room = room;
    this.tokens = tokens;
    this.timerEl = h('div', { testid: 'board-timer', class: 'board-timer', role: 'timer' });
    this.countdown = new Countdown(this.timerEl, room.link);
    this.chat = new Chat(room, { everything: true });
    this.waiting = h('div', { class: 'waiting-slot' });
    this.slots = {
      head: h('div'),
      controls: h('div'),
      script: h('div'),
      secrets: h('div', { class: 'mod-grid' }),
      facts: h('div', { class: 'board-facts' }),
    };
    this.timeline = new Fold('timeline-box', true);
    this.game = h(
      'section',
      { class: 'grimoire', hidden: true },
      this.slots.controls,
      this.slots.script,
      this.slots.secrets,
      this.slots.facts,
      this.chat.element,
      this.timeline.element,
    );
    byTestId('app').replaceChildren(this.waiting, this.game);
    // the Year, the step and the clock stay in sight in the status bar (bar.js)
    setBar({ main: [this.slots.head, this.timerEl] });
  }

  draw() {
    const room = this.room;
    const view = room.view;
    this.game.hidden = !view;
    drawWaiting(this.waiting, room, this.tokens);
    if (!view) {
      rerender(this.slots.head, h('h1', { class: 'board-step', text: t('waiting.title') }));
      setWaiting(room.lobby ? lobbyLine(room) : '');
      return;
    }
    const secrets = view.secrets || {};
    setWaiting(waitingText(view, view.secrets ? secrets.waiting_for || [] : null));
    this.countdown.set(room.timer);
    rerender(this.slots.head, yearAndStep(view));
    if (view.status === 'finished') {
      renderIfChanged(this.slots.controls, [language(), view.outcome, room.timeline.length], () => endScreen(room, view));
    } else rerender(this.slots.controls, hostControls(this.room, view));
    rerender(this.slots.script, h('p', { testid: 'mod-script', class: 'script big', text: `🎙 ${cueText(view.cue)}` }));
    rerender(this.slots.secrets, view.secrets ? this.secrets(view, secrets) : this.noSecrets());
    rerender(this.slots.facts, trackers(view), presidentInfo(view), projectInfo(view), votedCount(view), playersList(view));
    this.chat.update();
    this.timeline.draw(`📜 ${t('timeline.title')}`, [language(), room.timeline.length], () =>
      timelineList(room.story(), { withPrivate: true }),
    );
  }

  /** This browser is not the moderator (no moderator token, or no human moderator, R-71). */
  noSecrets() {
    const human = this.room.lobby?.settings?.moderator === 'human';
    return h('p', { class: 'info', role: 'status', text: `🔒 ${t(human ? 'mod.no_token' : 'mod.not_human')}` });
  }

  secrets(view, secrets) {
    const fundTarget = view.targets.corruption_fund;
    const pending = Object.entries(secrets.pending || {});
    return [
      h(
        'div',
        { testid: 'mod-fund', class: 'tracker bad', data: { value: secrets.corruption_fund, target: fundTarget } },
        h('span', { class: 'label', text: `💰 ${t('mod.fund')}` }),
        h('span', { class: 'figure', text: `${secrets.corruption_fund} / ${fundTarget}` }),
      ),
      h(
        'div',
        { testid: 'mod-kaban', class: 'tracker', data: { value: secrets.kaban, public: view.kaban_public } },
        h('span', { class: 'label', text: `🏦 ${t('mod.kaban')}` }),
        h('span', { class: 'figure', text: String(secrets.kaban) }),
        h('span', { class: 'hint', text: t('mod.kaban_public', { value: view.kaban_public, decrease: secrets.treasury_decrease ?? 0 }) }),
      ),
      h(
        'div',
        { class: 'mod-box' },
        h('h2', { text: `🎭 ${t('mod.roles')}` }),
        h(
          'ul',
          { testid: 'mod-roles', class: 'mod-roles' },
          Object.entries(secrets.roles || {}).map(([name, role]) =>
            h('li', { testid: 'mod-role', data: { name, role } }, h('bdi', { class: 'name', text: name }), ' ', roleBadge(role)),
          ),
        ),
      ),
      h(
        'div',
        { class: 'mod-box' },
        h('h2', { text: `🌙 ${t('mod.night')}` }),
        h(
          'ul',
          { testid: 'mod-night', class: 'mod-night' },
          pending.length
            ? pending.map(([name, action]) => h('li', { data: { name } }, h('strong', {}, h('bdi', { text: name })), ': ', withNames(describeAction(action))))
            : h('li', { class: 'muted-text', text: t('mod.nothing') }),
        ),
        h('h2', { text: `⏳ ${t('mod.waiting')}` }),
        h('p', { testid: 'mod-waiting', class: 'mod-waiting', data: { count: (secrets.waiting_for || []).length }, text: (secrets.waiting_for || []).map(actorName).join(', ') || t('mod.nobody_waited') }),
      ),
      h(
        'div',
        { class: 'mod-box' },
        h('h2', { text: `🗝 ${t('mod.trackers')}` }),
        h(
          'ul',
          { class: 'mod-trackers' },
          h('li', { text: t('mod.protected', { name: secrets.protected ?? t('option.nobody') }) }),
          h('li', {
            text: secrets.last_protected?.year
              ? t('mod.last_protected', { name: secrets.last_protected.player ?? t('option.nobody'), year: secrets.last_protected.year })
              : t('mod.no_last_protected'), // (not "Nobody (Year 0)")
          }),
          h('li', { text: secrets.investigation ? t(`result.investigation.${secrets.investigation.aligned}`, { name: secrets.investigation.target }) : t('mod.no_investigation') }),
          h('li', { text: t(secrets.coa_muted ? 'mod.muted' : 'mod.not_muted') }),
          h('li', { text: t(secrets.witness_used ? 'mod.witness_used' : 'mod.witness_unused') }),
          h('li', { text: secrets.audit?.project ? t(secrets.audit.kickback ? 'result.audit.yes' : 'result.audit.no', { project: cardName(secrets.audit.project) }) : t('result.audit.none') }),
        ),
      ),
    ];
  }
}

/** A pending action in a line: its kind and fields (record form, names as sent). */
function describeAction(action) {
  const { action: kind, player, auto, ...fields } = action;
  const parts = Object.entries(fields).map(([field, value]) => `${t(`mod.field.${field}`)} ${value === null ? '∅' : String(value)}`);
  return `${t(`mod.action.${kind}`)}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

runPage(
  'moderator',
  (tokens) =>
    tokens.moderator_token || tokens.host_token
      ? { token: tokens.moderator_token ?? null, host_token: tokens.host_token ?? null }
      : { spectate: true }, // no token here: the public view, and a word about it
  Grimoire,
);
