/**
 * Talk: the chat and the quick claim buttons of the discussion (`you.claims`, sent as
 * `act`).
 *
 * R-70 holds for talk too: every player's chat looks the same, whatever the role. The
 * log shows the table's messages only; every phone's picker offers the same two
 * channels, "Everyone" and "Private". For a free Corrupt in the Hidden Phase "Private" is
 * the team's channel; for everyone else (and the Corrupt by day) it is a note to
 * oneself, kept on the phone. Both the team's messages and one's notes are read in the
 * held role card (`privateTalk`), never in the log. A COA silenced by Suhol is told
 * so in the held card; what they try to say is refused next to it in a line as quiet as a
 * sent claim's, without the reason.
 *
 * The chosen channel stays chosen after a send: a message meant for the table that goes
 * to the team only is harmless, the reverse outs the team. When the night ends every
 * picker goes back to "Everyone" (one still on "Private" by day would mark a phone that
 * talked at night, R-70), unless a message is being typed: out of the night "Private" is
 * a note, and the phone says so under the picker (the same words for every role). What a
 * claim or message came to is said until its step ends.
 */

import { h, renderIfChanged } from './dom.js';
import { language, roleTitle, t } from './i18n.js';
import { errorText } from './words.js';

const NOTES_KEY = (code) => `korapsyon:private:${code}`;

/** Which discussion (or night) a status belongs to: it is cleared when the step ends. */
function stepKey(view) {
  return `${view?.year ?? ''}:${view?.step ?? ''}`;
}

/** This phone's private notes in room `code`: [{year, text}]. */
function privateNotes(code) {
  try {
    return JSON.parse(localStorage.getItem(NOTES_KEY(code))) || [];
  } catch {
    return [];
  }
}

/**
 * What the held role card shows of talk: the team's messages (a Corrupt's, R-23) and this
 * phone's private notes, in order, the latest last.
 */
export function privateTalk(room) {
  const team = room.chat.filter((m) => m.channel === 'corrupt').map((m) => ({ year: m.year, author: m.author, text: m.text, at: m.at }));
  const notes = privateNotes(room.code).map((n) => ({ ...n, author: null }));
  return [...team, ...notes].sort((x, y) => x.at - y.at).slice(-20);
}

export class Chat {
  /** `room`: the page's RoomState; `everything`: the moderator's grimoire, whose log shows
   * the team's channel too. */
  constructor(room, { everything = false } = {}) {
    this.room = room;
    this.everything = everything;
    this.wasNight = false; // (the last view was the Hidden Phase: its end resets the picker)
    this.messages = h('ol', { class: 'chat-log', 'aria-live': 'polite', tabindex: 0, onscroll: () => this.faded() });
    this.channel = h('select', { testid: 'chat-channel', id: 'chat-channel', 'aria-describedby': 'chat-channel-hint', onchange: () => this.hint() });
    this.channelHint = h('p', { testid: 'chat-channel-hint', id: 'chat-channel-hint', class: 'hint', hidden: true });
    this.input = h('input', { testid: 'chat-input', id: 'chat-input', type: 'text', maxlength: 500, autocomplete: 'off' });
    this.sendButton = h('button', { type: 'submit', testid: 'chat-send' });
    this.error = h('p', { testid: 'chat-error', class: 'field-error', role: 'alert', hidden: true });
    this.errorStep = null; // the step whose message was not sent (see stepKey)
    this.labels = [h('label', { class: 'sr-only', for: 'chat-channel' }), h('label', { class: 'sr-only', for: 'chat-input' })];
    this.form = h(
      'form',
      { class: 'chat-form', onsubmit: (event) => this.post(event) },
      this.labels[0],
      this.channel,
      this.channelHint,
      this.labels[1],
      this.input,
      this.sendButton,
      this.error,
    );
    this.title = h('h2', {});
    this.element = h('section', { testid: 'chat', class: 'chat' }, this.title, this.messages, this.form);
  }

  /** Whether "Private" is the team's channel now (a free Corrupt, at night). */
  teamOpen() {
    const view = this.room.view;
    const you = view?.you;
    return you?.role === 'corrupt_politician' && view.step === 'hidden' && you.status === 'active';
  }

  async post(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.error.hidden = true;
    if (this.channel.value === 'private' && !this.teamOpen()) {
      const notes = privateNotes(this.room.code);
      notes.push({ year: this.room.view?.year ?? 0, text, at: Date.now() / 1000 });
      localStorage.setItem(NOTES_KEY(this.room.code), JSON.stringify(notes.slice(-50)));
      this.sent();
      return;
    }
    const channel = this.channel.value === 'private' ? 'corrupt' : 'public';
    if (this.room.connection === 'closed') {
      this.notSent({ code: 'closed' }); // (not kept for later: talk goes stale)
      return;
    }
    this.input.disabled = true;
    try {
      await this.room.link.chat(channel, text);
      this.sent();
    } catch (exc) {
      this.notSent(exc);
    } finally {
      this.input.disabled = false;
      this.input.focus();
    }
  }

  /** Say, next to the chat, that the message did not go (it stays in the box). */
  notSent(exc) {
    // (the COA silenced by Suhol is not told why here, where the table can read it: the
    // held card says it, R-35; and the line looks like a sent claim's, not a warning that
    // stands out across the table)
    const quiet = exc.code === 'muted';
    const why = { closed: t('chat.not_sent'), muted: t('chat.not_sent_quiet') }[exc.code] ?? errorText(exc);
    this.error.textContent = `${quiet ? '✕' : '⚠'} ${why}`;
    this.error.classList.toggle('quiet', quiet);
    this.error.hidden = false;
    this.errorStep = stepKey(this.room.view);
    this.error.scrollIntoView({ block: 'nearest' });
  }

  /** A message went (or was noted): empty the box. The channel stays as chosen (a second
   * message meant for the team must not go to the table). */
  sent() {
    this.input.value = '';
    this.error.hidden = true;
    this.room.render('chat');
  }

  /** Under the picker, out of the night: "Private" is a note only this phone keeps (for a
   * Corrupt too, whose team channel was the night's). The same words on every phone. */
  hint() {
    const view = this.room.view;
    const day = Boolean(view?.you) && view.step !== 'hidden' && view.status !== 'finished';
    this.channelHint.hidden = !(day && this.channel.value === 'private');
    this.channelHint.textContent = t('chat.private_day');
  }

  /** Bring the chat up to date with the room's view and messages. */
  update() {
    const view = this.room.view;
    const you = view?.you;
    const spectator = this.room.welcome?.role === 'spectator';
    const inactive = you && you.status !== 'active' && view.status !== 'finished';
    this.title.textContent = `💬 ${t('chat.title')}`;
    this.labels[0].textContent = t('chat.channel');
    this.labels[1].textContent = t('chat.input');
    this.sendButton.textContent = t('chat.send');
    this.input.placeholder = spectator ? t('chat.spectator') : inactive ? t('chat.inactive') : t('chat.placeholder');
    const chosen = this.channel.value;
    renderIfChanged(this.channel, [language(), Boolean(you)], () => [
      h('option', { value: 'public', text: `📢 ${t('chat.public')}` }),
      you ? h('option', { value: 'private', text: `🔒 ${t('chat.private')}` }) : null,
    ]);
    // (redrawn options keep the choice while it is offered; gone, it falls to the first)
    if (chosen && [...this.channel.options].some((o) => o.value === chosen)) this.channel.value = chosen;
    // The night over, every phone's picker is back on "Everyone" alike (R-70: a picker on
    // "Private", and its day hint, marked the phones that talked to a team at night) -
    // but not under a message being typed, which then stays private (a note, by day).
    const night = view?.step === 'hidden';
    if (this.wasNight && !night && !this.input.value.trim()) this.channel.value = 'public';
    this.wasNight = night;
    this.hint();
    if (this.errorStep !== stepKey(view)) this.error.hidden = true; // that step is over
    const blocked = spectator || inactive;
    this.input.disabled = blocked;
    this.sendButton.disabled = blocked;
    // (the server's notices are told in the timeline, not here)
    const shown = this.room.chat.filter((m) => m.channel === 'public' || (this.everything && m.channel === 'corrupt')).slice(-100);
    renderIfChanged(this.messages, [language(), shown.length, shown.at(-1)?.seq ?? null], () =>
      shown.map((m) =>
        h(
          'li',
          { testid: 'chat-message', class: `chat-message ${m.channel}`, data: { channel: m.channel } },
          m.channel === 'corrupt' ? '🔒 ' : null,
          h('strong', { testid: 'chat-author', class: 'author' }, h('bdi', { text: authorName(m.author) })),
          ': ',
          h('span', { testid: 'chat-text', class: 'text', dir: 'auto', text: m.text }),
        ),
      ),
    );
    this.messages.scrollTop = this.messages.scrollHeight;
    this.faded();
  }

  /** The log's top line fades out while there is more above it. */
  faded() {
    this.messages.classList.toggle('scrolled', this.messages.scrollTop > 0);
  }
}

/** The host (without a seat) and the moderator post as `@host` / `@moderator`, which no
 * seat's name can be: only the server marks their messages. */
function authorName(author) {
  if (author === '@host') return `🎙 ${t('chat.host')}`;
  if (author === '@moderator') return `🎙 ${t('chat.moderator')}`;
  return author;
}

/** How long a claim waits on the phone, undoable, before it goes to the table. */
const CLAIM_HOLD_MS = 5000;
/** How long the claim buttons stay off after Undo or Send now, so that a second tap of
 * the same finger does not land on a claim where the buttons were. */
const CLAIM_SETTLE_MS = 800;

/**
 * The quick claims of the discussion (`you.claims`, each sent as one `act`). A claim about
 * a player needs the player chosen first (no one is chosen to begin with, so no stray tap
 * accuses anyone); a tapped claim is held on the phone for a few seconds, with "Undo" and
 * "Send now", before it reaches the board, and the phone says when it went.
 */
export class Claims {
  /** `room`: the page's RoomState; `redraw()` after local changes. */
  constructor(room, redraw) {
    this.room = room;
    this.redraw = redraw;
    this.target = null; // the player chosen in `claim-target` (nobody to begin with)
    this.held = null; // {claim, label, at, timer, tick}: the claim waiting to go
    this.last = null; // {state: sent|undone, label}: what became of the last one
    this.settling = null; // the timer that turns the claim buttons back on
    this.version = 0; // counts local changes: the section redraws on them
  }

  /** Turn the claim buttons off for a moment (the bar under the finger has just gone). */
  settle() {
    clearTimeout(this.settling);
    this.settling = setTimeout(() => {
      this.settling = null;
      this.changed();
    }, CLAIM_SETTLE_MS);
  }

  changed() {
    this.version += 1;
    this.redraw();
  }

  /** Hold `claim` (its fields, without action and player) for a few seconds. */
  hold(claim, label) {
    this.drop();
    const at = Date.now() + CLAIM_HOLD_MS;
    this.held = {
      claim,
      label,
      at,
      timer: setTimeout(() => this.sendNow(), CLAIM_HOLD_MS),
      tick: setInterval(() => this.countdown(), 250),
    };
    this.last = null;
    this.changed();
  }

  /** Forget the held claim (nothing is sent). */
  drop() {
    if (!this.held) return;
    clearTimeout(this.held.timer);
    clearInterval(this.held.tick);
    this.held = null;
  }

  undo() {
    const held = this.held;
    if (!held) return;
    this.drop();
    this.settle();
    this.last = { state: 'undone', label: held.label, step: stepKey(this.room.view) };
    this.changed();
  }

  /** Send the held claim now (one `act`). */
  async sendNow() {
    const held = this.held;
    const view = this.room.view;
    if (!held || !view?.you) return;
    this.drop();
    this.settle();
    this.changed();
    try {
      await this.room.link.act({ action: 'claim', player: view.you.name, ...held.claim });
      this.last = { state: 'sent', label: held.label, step: stepKey(view) };
      if (held.claim.target) this.target = null; // the next claim chooses again
    } catch (exc) {
      // told here, under the claims, not in the bar; and for the COA silenced by Suhol
      // without the reason, which the held card gives (a line saying "Suhol" would tell
      // the table who the COA is, R-35)
      this.last = { state: 'refused', label: held.label, why: exc.code === 'muted' ? '' : errorText(exc), step: stepKey(view) };
    }
    this.changed();
  }

  /** The seconds left, in the held claim's line (no redraw). */
  countdown() {
    const line = document.querySelector('[data-testid="claim-held"] .claim-seconds');
    if (this.held && line) line.textContent = t('claim.seconds', { n: Math.max(0, Math.ceil((this.held.at - Date.now()) / 1000)) });
  }

  /** The claims section for `view`, or null when no claim can be made now. */
  element(view) {
    const claims = view.you?.claims || [];
    if (claims.length === 0) {
      this.drop(); // the discussion is over: a held claim is never sent
      this.last = null; // and what became of the last one belongs to it
      return null;
    }
    if (this.last && this.last.step !== stepKey(view)) this.last = null;
    const me = view.you.name;
    const others = view.players.filter((p) => p.name !== me).map((p) => p.name);
    if (!others.includes(this.target)) this.target = null;
    const target = this.target;
    const busy = this.held !== null || this.settling !== null;
    const button = (claim, label, disabled = false) =>
      h('button', {
        type: 'button',
        testid: 'claim',
        class: 'claim',
        data: { action: 'claim', claim: JSON.stringify(claim) },
        disabled: disabled || busy,
        text: label,
        onclick: () => this.hold(claim, label),
      });
    const kinds = new Map(claims.map((c) => [c.options.claim[0], c.options]));
    const who = target ?? t('claim.who');
    const picker = h(
      'select',
      {
        id: 'claim-target',
        testid: 'claim-target',
        'aria-describedby': target ? null : 'claim-target-hint',
        onchange: (event) => {
          this.target = event.target.value || null;
          this.changed();
        },
      },
      h('option', { value: '', selected: target === null, text: t('claim.choose') }),
      others.map((name) => h('option', { value: name, selected: name === target, text: `\u2068${name}\u2069` })),
    );
    return h(
      'section',
      { class: 'claims', 'aria-labelledby': 'claims-title' },
      h('h2', { id: 'claims-title', text: `🗣 ${t('claim.title')}` }),
      h('p', { class: 'hint', text: t('claim.hint') }),
      kinds.has('role')
        ? h('div', { class: 'claim-row' }, kinds.get('role').role.map((role) => button({ claim: 'role', role }, t('claim.role', { role: roleTitle(role) }))))
        : null,
      kinds.has('audit')
        ? h(
            'div',
            { class: 'claim-row' },
            [true, false].map((kickback) => button({ claim: 'audit', kickback }, t(`claim.audit.${kickback}`))),
          )
        : null,
      h('div', { class: 'claim-row about' }, h('label', { for: 'claim-target', text: t('claim.about') }), picker),
      h('p', { testid: 'claim-target-hint', id: 'claim-target-hint', class: 'hint warn', hidden: target !== null, text: t('claim.pick_first') }),
      h(
        'div',
        { class: 'claim-row targeted' },
        kinds.has('suspect') ? button({ claim: 'suspect', target }, t('claim.suspect', { name: who }), !target) : null,
        kinds.has('trust') ? button({ claim: 'trust', target }, t('claim.trust', { name: who }), !target) : null,
        kinds.has('investigation')
          ? ['good', 'bad'].map((aligned) => button({ claim: 'investigation', target, aligned }, t(`claim.investigation.${aligned}`, { name: who }), !target))
          : null,
      ),
      this.heldBar(),
    );
  }

  /** The held claim with Undo and Send now, or what became of the last claim. */
  heldBar() {
    if (this.held) {
      const seconds = Math.max(0, Math.ceil((this.held.at - Date.now()) / 1000));
      return h(
        'div',
        { testid: 'claim-held', class: 'claim-held', role: 'status' },
        h('p', {}, h('strong', { text: `🗣 “${this.held.label}”` }), ' ', h('span', { class: 'claim-seconds', text: t('claim.seconds', { n: seconds }) })),
        h(
          'div',
          { class: 'claim-held-buttons' },
          h('button', { type: 'button', testid: 'claim-undo', class: 'big', text: `↩ ${t('claim.undo')}`, onclick: () => this.undo() }),
          h('button', { type: 'button', testid: 'claim-send-now', class: 'primary big', text: `📣 ${t('claim.send_now')}`, onclick: () => this.sendNow() }),
        ),
      );
    }
    if (!this.last) return null;
    // (a refused claim's line looks like a sent one's: the silenced COA's phone must not
    // stand out across the table, R-35)
    const icon = { sent: '✔', undone: '↩', refused: '✕' }[this.last.state];
    const text = [t(`claim.${this.last.state}`, { claim: this.last.label }), this.last.why].filter(Boolean).join(' ');
    return h('p', { testid: 'claim-status', class: `claim-status ${this.last.state}`, role: 'status', data: { state: this.last.state }, text: `${icon} ${text}` });
  }
}
