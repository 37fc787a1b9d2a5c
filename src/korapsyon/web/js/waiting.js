/**
 * The waiting room, before the start: the room code, join link and QR code, the seats,
 * and for the host the table's setup - bots, the standard composition (R-02) or a
 * custom role count (R-03), the rule variants (the Ruleset's options), the discussion
 * timer - and the start button. Shared by the phone, the board and the moderator page.
 */

import { h, renderIfChanged } from './dom.js';
import { language, roleTitle, t, tn } from './i18n.js';
import { api } from './net.js';
import { qrSvg } from './qr.js';
import { ROLE_ICONS, ROLES } from './roles.js';
import { clearError, showError } from './shell.js';
import { errorText } from './words.js';

/** R-02: Good Politician, Corrupt Politician, Lawyer, Ombudsperson, COA, Citizen. */
const COMPOSITION = {
  9: [2, 2, 1, 1, 1, 2],
  10: [2, 2, 1, 1, 1, 3],
  11: [2, 2, 1, 1, 1, 4],
  12: [2, 3, 1, 1, 1, 4],
  13: [2, 3, 1, 1, 1, 5],
  14: [2, 3, 1, 1, 1, 6],
  15: [2, 3, 1, 1, 1, 7],
  16: [2, 4, 1, 1, 1, 7],
};
const MIN_PLAYERS = 9;
const MAX_PLAYERS = 16;

/** The Ruleset's [house]/[variant] options the host may pick, with their defaults. */
const VARIANTS = [
  { option: 'auto_jail_mode', values: ['direct', 'forced_vote'], rule: 'R-25' },
  { option: 'lawyer_consecutive', values: ['forbidden', 'allowed'], rule: 'R-21' },
  { option: 'suhol_consent', values: ['unanimous', 'majority'], rule: 'R-23' },
  { option: 'tokhang_consent', values: ['unanimous', 'majority'], rule: 'R-23' },
  { option: 'suhol_fund_check', values: ['after_steal', 'before_steal'], rule: 'R-25' },
  { option: 'tokhang_on_president', values: [true, false], rule: 'R-33' },
  { option: 'reveal_tokhang_role', values: [true, false], rule: 'R-40' },
  { option: 'good_politicians_recognise', values: [false, true], rule: 'R-07' },
];

/** The standard composition for `seats` (the nearest table row outside 9-16). */
function standardCounts(seats) {
  return COMPOSITION[Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, seats))];
}

/** Addresses only this computer can open: a join link to them is useless to phones. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function joinUrl(code) {
  return `${location.origin}/?room=${encodeURIComponent(code)}`;
}

/**
 * Draw the waiting room of `room` (a RoomState) into `slot` while the room is in its
 * lobby; `tokens` are the page's (the host token shows the host's controls). Returns
 * whether the room is still waiting.
 */
export function drawWaiting(slot, room, tokens) {
  const waiting = !room.view && room.lobby?.status === 'lobby';
  slot.hidden = !waiting;
  if (waiting) {
    const hostToken = room.welcome?.host ? tokens.host_token : null;
    renderIfChanged(slot, [language(), room.lobby, room.refusals], () => waitingRoom(room, hostToken));
  }
  return waiting;
}

function waitingRoom(room, hostToken) {
  const lobby = room.lobby;
  const request = requester(room);
  const code = lobby.code;
  const url = joinUrl(code);
  return h(
    'section',
    { class: 'waiting' },
    h(
      'div',
      { class: 'join-card' },
      h('p', { class: 'label', text: t('waiting.code') }),
      h('p', { testid: 'room-code', class: 'room-code', text: code }),
      h('div', { testid: 'qr-code', class: 'qr-box' }, qrSvg(url, t('waiting.qr', { code }))),
      h('a', { testid: 'join-link', class: 'join-link', href: url, text: url }),
      h('p', { class: 'hint', text: t('waiting.scan') }),
      LOCAL_HOSTS.has(location.hostname) ? h('p', { class: 'hint warn', text: t('waiting.localhost') }) : null,
    ),
    seatList(lobby, hostToken, room.welcome?.seat, request),
    lobby.settings.public_record ? h('p', { testid: 'public-record', class: 'hint warn', text: `📢 ${t('waiting.public_record')}` }) : null,
    hostToken ? hostPanel(room, hostToken, request) : h('p', { class: 'hint big', text: `⏳ ${t('waiting.for_host')}` }),
  );
}

function seatList(lobby, hostToken, mySeat, request) {
  const seats = lobby.seats;
  return h(
    'div',
    { class: 'seats' },
    h('h2', { text: tn('waiting.seats', seats.length) }),
    h(
      'ul',
      { testid: 'seat-list', class: 'seat-list' },
      seats.map((seat) =>
        h(
          'li',
          {
            testid: 'seat-item',
            class: seat.connected ? 'seat connected' : 'seat',
            data: { seat: seat.seat, name: seat.name, bot: seat.bot ? seat.bot : '' },
          },
          h('span', { class: 'seat-icon', 'aria-hidden': 'true', text: seat.bot ? '🤖' : seat.connected ? '🟢' : '⚪' }),
          h('bdi', { class: 'name', text: seat.name }),
          seat.name === mySeat ? h('span', { class: 'tag', text: t('waiting.you') }) : null,
          h('span', { class: 'muted-text', text: seat.bot ? t(`bot.${seat.bot}`) : seat.connected ? t('waiting.here') : t('waiting.away') }),
          hostToken
            ? h('button', {
                type: 'button',
                testid: 'remove-seat',
                class: 'small danger',
                'aria-label': t('waiting.remove', { name: seat.name }),
                text: '✕',
                onclick: () => request('DELETE', `/api/rooms/${lobby.code}/seats/${seat.seat}`, undefined, hostToken),
              })
            : null,
        ),
      ),
    ),
  );
}

/**
 * The host's lobby requests. A refusal is shown, and the waiting room is drawn again
 * from the room's unchanged settings (the refused value does not stay in its input).
 */
function requester(room) {
  return async (method, path, body, hostToken) => {
    try {
      const answer = await api(method, path, body, hostToken);
      clearError();
      return answer;
    } catch (exc) {
      showError(errorText(exc));
      room.refusals += 1;
      room.render('refused');
      return null;
    }
  };
}

function hostPanel(room, hostToken, request) {
  const lobby = room.lobby;
  const code = lobby.code;
  const settings = lobby.settings;
  const seats = lobby.seats.length;
  const put = (patch) => request('PUT', `/api/rooms/${code}/settings`, { ...settings, ...patch }, hostToken);
  const kind = h(
    'select',
    { testid: 'bot-kind', id: 'bot-kind' },
    ['heuristic', 'random'].map((k) => h('option', { value: k, text: t(`bot.${k}`) })),
  );
  return h(
    'div',
    { class: 'host-panel' },
    h('h2', { text: t('waiting.host') }),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'bot-kind', text: t('waiting.bot_kind') }),
      kind,
      h('button', {
        type: 'button',
        testid: 'add-bot',
        text: `🤖 ${t('waiting.add_bot')}`,
        onclick: () => request('POST', `/api/rooms/${code}/bots`, { kind: kind.value }, hostToken),
      }),
    ),
    setupFields(settings, seats, put),
    variantFields(settings, put),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'discussion-seconds', text: t('waiting.discussion') }),
      h('input', {
        testid: 'discussion-seconds',
        id: 'discussion-seconds',
        type: 'number',
        min: 30,
        max: 3600,
        step: 10,
        inputmode: 'numeric',
        value: settings.discussion_seconds ?? 180,
        onchange: (event) => {
          const seconds = Number(event.target.value);
          if (seconds >= 0 && seconds <= 3600) put({ discussion_seconds: seconds });
        },
      }),
    ),
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        testid: 'publish-record',
        checked: Boolean(settings.public_record),
        onchange: (event) => put({ public_record: event.target.checked }),
      }),
      ' ',
      t('waiting.publish_record'),
    ),
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        testid: 'auto-stand-in',
        checked: settings.auto_stand_in ?? true,
        onchange: (event) => put({ auto_stand_in: event.target.checked }),
      }),
      ' ',
      `🤖 ${t('waiting.auto_stand_in')}`,
    ),
    h(
      'div',
      { class: 'row start-row' },
      h('button', {
        type: 'button',
        testid: 'start-game',
        class: 'primary big',
        text: `▶ ${t('waiting.start')}`,
        onclick: () => request('POST', `/api/rooms/${code}/start`, undefined, hostToken),
      }),
      h('a', { testid: 'open-board', class: 'button', href: `/board?room=${code}`, target: '_blank', text: `📺 ${t('waiting.open_board')}` }),
    ),
  );
}

/** R-02 / R-03: the standard composition, or a custom count of each role. */
function setupFields(settings, seats, put) {
  const custom = Array.isArray(settings.roles);
  const counts = custom
    ? ROLES.map((role) => settings.roles.filter((r) => r === role).length)
    : standardCounts(seats);
  const total = counts.reduce((a, b) => a + b, 0);
  const rolesOf = (list) => ROLES.flatMap((role, i) => Array(list[i]).fill(role));
  return h(
    'fieldset',
    { class: 'setup' },
    h('legend', { text: t('waiting.setup') }),
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        testid: 'setup-custom',
        checked: custom,
        onchange: (event) => put({ roles: event.target.checked ? rolesOf(counts) : null }),
      }),
      ' ',
      t('waiting.custom'),
    ),
    h(
      'div',
      { class: 'role-counts' },
      ROLES.map((role, i) =>
        h(
          'label',
          { class: 'role-count' },
          h('span', { text: `${ROLE_ICONS[role]} ${roleTitle(role)}` }),
          h('input', {
            type: 'number',
            testid: 'role-count',
            data: { role },
            min: 0,
            max: 20,
            inputmode: 'numeric',
            value: counts[i],
            disabled: !custom,
            onchange: (event) => {
              const next = [...counts];
              next[i] = Math.max(0, Number(event.target.value) || 0);
              put({ roles: rolesOf(next) });
            },
          }),
        ),
      ),
    ),
    h('p', {
      class: custom && total !== seats ? 'hint warn' : 'hint',
      text: custom ? t('waiting.custom_total', { roles: total, seats }) : t('waiting.standard', { seats }),
    }),
  );
}

let variantsOpen = false; // the host opened the variants: redraws keep them open

/** The rule variants: each Ruleset option as a select (`variant`, `data-option`). */
function variantFields(settings, put) {
  const ruleset = settings.ruleset || {};
  return h(
    'details',
    { class: 'variants', open: variantsOpen, ontoggle: (event) => (variantsOpen = event.target.open) },
    h('summary', { text: t('waiting.variants') }),
    VARIANTS.map(({ option, values, rule }) => {
      const current = option in ruleset ? ruleset[option] : values[0];
      const id = `variant-${option}`;
      return h(
        'div',
        { class: 'row variant-row' },
        h('label', { for: id, text: `${t(`variant.${option}`)} (${rule})` }),
        h(
          'select',
          {
            id,
            testid: 'variant',
            data: { option },
            onchange: (event) => {
              const value = JSON.parse(event.target.value);
              const next = { ...ruleset };
              if (value === values[0]) delete next[option];
              else next[option] = value;
              put({ ruleset: next });
            },
          },
          values.map((value) =>
            h('option', { value: JSON.stringify(value), selected: value === current, text: t(`variant.${option}.${value}`) }),
          ),
        ),
      );
    }),
  );
}
