/**
 * Talk: the chat (public; the Corrupt's own channel during the Hidden Phase, R-23) and
 * the quick claim buttons of the discussion (`you.claims`, sent as `act`). A COA
 * silenced by Suhol gets a mute banner instead of the message box.
 */

import { h, holdToReveal, renderIfChanged } from './dom.js';
import { language, roleTitle, t } from './i18n.js';

export class Chat {
  /** `room`: the page's RoomState. */
  constructor(room) {
    this.room = room;
    // The Corrupt's team messages are blurred until the log is held (R-70: a glance at a
    // Corrupt's phone in the night must not read them, nor tell them from other talk).
    this.messages = h('ol', { class: 'chat-log', 'aria-live': 'polite', tabindex: 0 });
    holdToReveal(this.messages, (held) => this.messages.classList.toggle('revealed', held));
    this.channel = h('select', { testid: 'chat-channel', id: 'chat-channel' });
    this.input = h('input', { testid: 'chat-input', id: 'chat-input', type: 'text', maxlength: 500, autocomplete: 'off' });
    this.sendButton = h('button', { type: 'submit', testid: 'chat-send' });
    this.banner = h('p', { testid: 'mute-banner', class: 'mute-banner', role: 'status', hidden: true });
    this.labels = [h('label', { class: 'sr-only', for: 'chat-channel' }), h('label', { class: 'sr-only', for: 'chat-input' })];
    this.form = h(
      'form',
      { class: 'chat-form', onsubmit: (event) => this.post(event) },
      this.labels[0],
      this.channel,
      this.labels[1],
      this.input,
      this.sendButton,
    );
    this.title = h('h2', {});
    this.element = h('section', { testid: 'chat', class: 'chat' }, this.title, this.banner, this.messages, this.form);
  }

  async post(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.input.disabled = true;
    const ok = await this.room.attempt(this.room.link.chat(this.channel.value, text));
    this.input.disabled = false;
    if (ok) this.input.value = '';
    this.input.focus();
  }

  /** Bring the chat up to date with the room's view and messages. */
  update() {
    const view = this.room.view;
    const you = view?.you;
    const spectator = this.room.welcome?.role === 'spectator';
    const corrupt = you?.role === 'corrupt_politician' && view.step === 'hidden' && you.status === 'active';
    const muted = Boolean(you?.muted) && view.step !== 'hidden';
    const inactive = you && you.status !== 'active' && view.status !== 'finished';
    this.title.textContent = `💬 ${t('chat.title')}`;
    this.labels[0].textContent = t('chat.channel');
    this.labels[1].textContent = t('chat.input');
    this.sendButton.textContent = t('chat.send');
    this.input.placeholder = spectator ? t('chat.spectator') : inactive ? t('chat.inactive') : t('chat.placeholder');
    renderIfChanged(this.channel, [language(), corrupt], () => [
      h('option', { value: 'public', text: `📢 ${t('chat.public')}` }),
      corrupt ? h('option', { value: 'corrupt', text: `🔒 ${t('chat.corrupt')}` }) : null,
    ]);
    this.banner.hidden = !muted;
    this.banner.textContent = `🔇 ${t('chat.muted')}`;
    const blocked = spectator || inactive || (muted && this.channel.value === 'public');
    this.input.disabled = blocked;
    this.sendButton.disabled = blocked;
    renderIfChanged(this.messages, [language(), this.room.chat.length], () =>
      this.room.chat.slice(-100).map((m) =>
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
  }
}

/** The host (without a seat) and the moderator post as `@host` / `@moderator`, which no
 * seat's name can be: only the server marks their messages. */
function authorName(author) {
  if (author === '@host') return `🎙 ${t('chat.host')}`;
  if (author === '@moderator') return `🎙 ${t('chat.moderator')}`;
  return author;
}

/** The claims a player may make now (the discussion): buttons that each send one `act`. */
export function claimButtons(room, view, state) {
  const claims = view.you?.claims || [];
  if (claims.length === 0) return null;
  const me = view.you.name;
  const others = view.players.filter((p) => p.name !== me).map((p) => p.name);
  state.target = others.includes(state.target) ? state.target : others[0];
  const button = (claim, label) =>
    h('button', {
      type: 'button',
      testid: 'claim',
      class: 'claim',
      data: { action: 'claim', claim: JSON.stringify(claim) },
      text: label,
      onclick: () => room.attempt(room.link.act({ action: 'claim', player: me, ...claim })),
    });
  const kinds = new Map(claims.map((c) => [c.options.claim[0], c.options]));
  const target = state.target;
  const picker = h(
    'select',
    {
      id: 'claim-target',
      testid: 'claim-target',
      onchange: (event) => {
        state.target = event.target.value;
        state.redraw();
      },
    },
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
    h('div', { class: 'claim-row' }, h('label', { for: 'claim-target', text: t('claim.about') }), picker),
    h(
      'div',
      { class: 'claim-row' },
      kinds.has('suspect') ? button({ claim: 'suspect', target }, t('claim.suspect', { name: target })) : null,
      kinds.has('trust') ? button({ claim: 'trust', target }, t('claim.trust', { name: target })) : null,
      kinds.has('investigation')
        ? ['good', 'bad'].map((aligned) => button({ claim: 'investigation', target, aligned }, t(`claim.investigation.${aligned}`, { name: target })))
        : null,
    ),
  );
}
