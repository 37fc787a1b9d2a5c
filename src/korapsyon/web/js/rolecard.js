/**
 * The role card: press and hold to see it (R-06: roles stay secret, even from the
 * person next to you). While held it shows the role and its one-line goal, the fellow
 * Corrupt (R-07) and their live night choices (R-23), what tonight's grid and plans mean
 * for this role and why a name is refused (R-21, R-22, R-24), and the player's private
 * results: the Lawyer's last protectee (R-21), the Ombudsperson's finding (R-22), the
 * COA's audit (R-34) and this Year's private news, under the step's countdown (held, it
 * covers the status bar's). Released, every role's card looks
 * alike; a tap too short to reveal says "hold longer", the same on every phone; and the
 * guide (how to play, every role) opens from under it, the same button for everyone.
 */

import { h, holdToReveal, renderIfChanged } from './dom.js';
import { cardName, entryText, goalText } from './words.js';
import { privateTalk } from './talk.js';
import { language, t } from './i18n.js';
import { roleBadge } from './roles.js';
import { nightMeaning, nightNotes } from './decide.js';
import { guideButton } from './guide.js';

const TAP_HINT_MS = 2500; // how long "hold longer" stays after a short tap

export class RoleCard {
  /** `room`: the page's RoomState (its code, and the chat for the private talk). */
  constructor(room) {
    this.room = room;
    this.code = room.code;
    // (the other hint, hidden, keeps its room: a short tap does not move the night's grid)
    this.hintText = h('span');
    this.hint = h('p', { testid: 'role-hint', class: 'reveal-hint', 'aria-live': 'polite' }, this.hintText);
    this.secret = h('div', { class: 'secret', hidden: true });
    this.clock = h('span', { testid: 'card-timer', class: 'timer card-timer' }); // the step's (phone.js)
    this.reveal = h(
      'div',
      { testid: 'role-reveal', class: 'role-reveal', role: 'button', tabindex: 0, 'aria-pressed': 'false' },
      this.hint,
      this.secret,
    );
    this.guide = h('div', { class: 'role-card-tools' });
    this.element = h('section', { testid: 'role-card', class: 'role-card' }, this.reveal, this.guide);
    this.tapped = null; // the timer of the "hold longer" hint, while it shows
    holdToReveal(this.reveal, (held) => this.hold(held), () => this.tap());
  }

  hold(held) {
    this.secret.hidden = !held;
    this.reveal.classList.toggle('held', held);
    this.reveal.setAttribute('aria-pressed', String(held));
  }

  /** A tap too short to reveal: say "hold longer" for a moment (the same on every phone). */
  tap() {
    clearTimeout(this.tapped);
    this.tapped = setTimeout(() => {
      this.tapped = null;
      this.drawHint();
    }, TAP_HINT_MS);
    this.drawHint();
  }

  drawHint() {
    const hold = `🂠 ${t('role.hold')}`;
    const longer = `👆 ${t('role.hold_longer')}`;
    this.hint.classList.toggle('tapped', this.tapped !== null);
    this.hintText.textContent = this.tapped !== null ? longer : hold;
    this.hint.dataset.spare = this.tapped !== null ? hold : longer;
  }

  /** Bring the card up to date (its look does not change unless held). */
  update(view, timeline) {
    const you = view.you;
    this.drawHint();
    renderIfChanged(this.guide, [language()], () => guideButton('card'));
    const privateNews = timeline.filter((e) => e.private && e.year === view.year && e.kind !== 'role_dealt' && e.kind !== 'team_revealed');
    const talk = privateTalk(this.room);
    renderIfChanged(this.secret, [language(), view.year, view.step, you, privateNews.length, talk], () => this.secrets(view, privateNews, talk));
  }

  secrets(view, privateNews, talk) {
    const you = view.you;
    const notes = nightNotes(this.code);
    // (this Year's results have lines of their own above: not twice in the news)
    const above = new Set([you.investigation && 'investigation_result', you.audit && 'audit_delivered', you.muted && 'coa_muted']);
    const news = privateNews.filter((e) => !above.has(e.kind));
    return [
      h('p', { class: 'release-hint' }, t('role.release'), ' ', this.clock),
      h('p', { testid: 'role-name', class: 'role-name', data: { role: you.role } }, roleBadge(you.role)),
      h('p', { testid: 'role-goal', class: 'role-goal', text: goalText(you.role) }),
      you.teammates
        ? h('p', { testid: 'teammates', class: 'teammates', text: t(you.role === 'corrupt_politician' ? 'role.teammates_corrupt' : 'role.teammates_good', { names: you.teammates.join(', ') || t('role.none') }) })
        : null,
      you.team_choices ? teamChoices(you.team_choices) : null,
      tonight(view, this.code),
      you.role === 'lawyer' ? h('p', { testid: 'last-protected', class: 'result', text: lastProtected(you) }) : null,
      you.investigation
        ? h('p', { testid: 'investigation', class: `result team-${you.investigation.aligned}`, data: { target: you.investigation.target, aligned: you.investigation.aligned }, text: `🔍 ${t(`result.investigation.${you.investigation.aligned}`, { name: you.investigation.target })}` })
        : null,
      you.audit ? audit(you.audit) : null,
      you.muted ? h('p', { testid: 'muted', class: 'result', text: `🔇 ${t('chat.muted')}` }) : null,
      news.length ? h('ul', { class: 'private-news' }, news.map((e) => h('li', { text: `🔒 ${entryText(e)}` }))) : null,
      talk.length ? privateList(talk) : null,
      Object.keys(notes).length
        ? h('p', { class: 'hint', text: t('role.notes', { notes: Object.entries(notes).map(([y, n]) => `${t('year.short', { year: y })}: ${n}`).join(' · ') }) })
        : null,
      view.step === 'hidden' && you.choices.length ? h('p', { class: 'hint', text: t('role.plans_shuffle') }) : null,
      you.team_choices ? h('p', { class: 'hint', text: t('role.team_chat') }) : null,
    ];
  }
}

/** R-21: whom the Lawyer protected last Year (themself, someone, or nobody). */
function lastProtected(you) {
  if (!you.last_protected) return t('result.no_last_protected');
  if (you.last_protected === you.name) return t('result.last_protected_self');
  return t('result.last_protected', { name: you.last_protected });
}

/**
 * R-70: what the night screen's grid and tonight's letters A-D mean for this player, and
 * why a name the grid refuses is refused (the grid itself says the same for every role).
 */
function tonight(view, code) {
  const meaning = nightMeaning(view, code);
  if (!meaning) return null;
  return h(
    'div',
    { class: 'tonight result' },
    h('p', { text: `🌙 ${meaning.instruction}` }),
    meaning.barred.length
      ? h('ul', { testid: 'barred-reasons', class: 'barred-reasons' }, meaning.barred.map(({ name, text }) => h('li', { data: { name }, text: `✋ ${text}` })))
      : null,
    h('ul', { testid: 'plan-legend' }, meaning.plans.map((line) => h('li', { text: line }))),
  );
}

/** R-23: the other free Corrupt's current night choices (null: not chosen yet). */
function teamChoices(choices) {
  return h(
    'ul',
    { testid: 'team-choices', class: 'team-choices', 'aria-label': t('role.team_choices') },
    Object.entries(choices).map(([name, choice]) =>
      h(
        'li',
        { data: { name } },
        h('strong', {}, h('bdi', { text: name })),
        ': ',
        choice
          ? t('role.team_choice', {
              nakaw: choice.nakaw ? t('switch.on') : t('switch.off'),
              suhol: choice.suhol ? t('switch.on') : t('switch.off'),
              tokhang: choice.tokhang ?? t('option.nobody'),
            })
          : t('role.team_undecided'),
      ),
    ),
  );
}

/** The team's messages (R-23, the Corrupt) and this phone's own private notes. */
function privateList(talk) {
  return h(
    'div',
    { testid: 'private-talk', class: 'result' },
    h('p', { text: `🔒 ${t('chat.private_title')}` }),
    h(
      'ul',
      {},
      talk.map((m) =>
        h('li', { testid: 'private-message' }, m.author ? [h('strong', {}, h('bdi', { text: m.author })), ': '] : '📝 ', h('span', { dir: 'auto', text: m.text })),
      ),
    ),
  );
}

/** R-34: last Year's audit, as the COA reads it (Suhol never changes it, R-25). */
function audit(result) {
  const text = result.project
    ? t(result.kickback ? 'result.audit.yes' : 'result.audit.no', { project: cardName(result.project) })
    : t('result.audit.none');
  return h('p', { testid: 'audit', class: 'result', data: { project: result.project ?? '', kickback: String(Boolean(result.kickback)) }, text: `📋 ${text}` });
}
