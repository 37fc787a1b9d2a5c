/**
 * The waiting room, before the start: the room code, join link and QR code, the seats,
 * and for the host the table's setup - bots, the standard composition or a
 * custom role count, the rule variants (the Ruleset's options), the discussion
 * timer - and the start button. Shared by the phone, the board and the moderator page.
 *
 * A refused request is told next to the control that made it (`bot-error` under "add a
 * bot", `start-error` over Start, ...), and Start says before the tap why the game cannot
 * start yet (`start-why`, R-01/R-03): it is enabled only when the server would deal.
 *
 * Why one module of ~480 lines: each of the host's controls asks the lobby API and shows its
 * own refusal; kept together, they share that one pattern and the room's settings.
 */

import { h, renderIfChanged } from './dom.js';
import { language, roleTitle, t, tn } from './i18n.js';
import { api } from './net.js';
import { qrSvg } from './qr.js';
import { ROLE_ICONS, ROLES } from './roles.js';
import { errorText } from './words.js';

/** Good Politician, Corrupt Politician, Lawyer, Ombudsperson, COA, Citizen. */
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
const MIN_CUSTOM = 5; // a custom setup
const MAX_CUSTOM = 20;

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
 * Why the room cannot start as it is, in words (null: it can). R-01: 9-16 players for the
 * usual roles, 5-20 with roles chosen by the host, one role per seat.
 */
export function startProblem(lobby) {
  const seats = lobby.seats.length;
  const roles = lobby.settings.roles;
  if (Array.isArray(roles)) {
    if (seats < MIN_CUSTOM || seats > MAX_CUSTOM) return t('start.custom_seats', { seats });
    if (roles.length !== seats) return t('start.custom_count', { roles: roles.length, seats });
    return null;
  }
  if (seats < MIN_PLAYERS) return t('start.too_few', { seats });
  if (seats > MAX_PLAYERS) return t('start.too_many', { seats, n: seats - MAX_PLAYERS });
  return null;
}

/**
 * The status bar's line in the waiting room: for the host, what Start still needs (or
 * that it is ready); for everyone else, who is at the table and that the host starts.
 */
export function lobbyLine(room) {
  const lobby = room.lobby;
  if (lobby.status !== 'lobby') return '';
  if (room.welcome?.host) {
    if (!startProblem(lobby)) return `✔ ${t('start.ready')}`;
    const roles = lobby.settings.roles;
    const seats = lobby.seats.length;
    if (Array.isArray(roles) && roles.length !== seats && seats >= MIN_CUSTOM && seats <= MAX_CUSTOM) {
      return `⏳ ${t('bar.start_roles', { roles: roles.length, seats })}`;
    }
    return `⏳ ${t(Array.isArray(roles) ? 'bar.start_custom' : 'bar.start_seats', { seats })}`;
  }
  return `⏳ ${tn('bar.lobby', lobby.seats.length)}`;
}

/**
 * R-03's checks on a custom role count (in ROLES order), in words: the first rule it
 * breaks, or null. (The server checks them too; this names which one.)
 */
function setupProblem(counts) {
  const [good, corrupt, lawyer, ombudsperson, coa] = counts;
  if (good < 2) return t('setup.need_good');
  if (corrupt < 1) return t('setup.need_corrupt');
  if (lawyer > 1 || ombudsperson > 1 || coa > 1) return t('setup.one_each');
  return null;
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
    renderIfChanged(slot, [language(), room.lobby, room.settingsDraft, room.removing, room.starting, room.lobbyErrors, room.refusals], () => waitingRoom(room, hostToken));
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
      // (for whoever runs the server: a player who got here has nothing to do about it)
      hostToken && LOCAL_HOSTS.has(location.hostname) ? h('p', { class: 'hint warn', text: t('waiting.localhost') }) : null,
    ),
    seatList(room, hostToken, request),
    lobby.settings.public_record ? h('p', { testid: 'public-record', class: 'hint warn', text: `📢 ${t('waiting.public_record')}` }) : null,
    hostToken ? hostPanel(room, hostToken, request) : h('p', { class: 'hint big', text: `⏳ ${t('waiting.for_host')}` }),
    hostToken ? startBar(room, hostToken, request) : null,
  );
}

/** The refusal of the last request made with the controls of `area`, where they are. */
function fieldError(room, area) {
  const text = room.lobbyErrors[area];
  return h('p', { testid: `${area}-error`, class: 'field-error', role: 'alert', hidden: !text, text: text ? `⚠ ${text}` : '' });
}

function seatList(room, hostToken, request) {
  const lobby = room.lobby;
  const mySeat = room.welcome?.seat;
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
          // (never on the host's own seat: one stray tap would take the host out of the room)
          hostToken && seat.name !== mySeat ? removeControls(room, request, seat, hostToken) : null,
        ),
      ),
    ),
    fieldError(room, 'seat'),
  );
}

/**
 * The host's ✕ on a seat. A bot goes at once (it is added again as quickly); a person only
 * once the host confirms, in the row itself ("Remove" / "Keep"), and "Remove" takes taps
 * only a moment after it appears: a double tap on ✕ removes nobody.
 */
function removeControls(room, request, seat, hostToken) {
  const code = room.lobby.code;
  if (!seat.bot && room.removing === seat.name) {
    const remove = h('button', {
      type: 'button',
      testid: 'remove-confirm',
      class: 'small danger',
      'aria-label': t('waiting.remove', { name: seat.name }),
      text: t('waiting.remove_yes'),
      disabled: true,
      onclick: () => {
        room.removing = null;
        removeSeat(request, code, seat, hostToken);
      },
    });
    setTimeout(() => {
      remove.dataset.armed = 'true'; // (settleSeats keeps it off while a removal settles)
      remove.disabled = seatsSettling;
    }, SEAT_SETTLE_MS);
    const keep = h('button', {
      type: 'button',
      testid: 'remove-keep',
      class: 'small',
      text: t('waiting.remove_keep'),
      onclick: () => {
        room.removing = null;
        room.render('seat');
      },
    });
    return h('span', { class: 'remove-ask' }, keep, remove);
  }
  return h('button', {
    type: 'button',
    testid: 'remove-seat',
    class: 'small danger',
    'aria-label': t('waiting.remove', { name: seat.name }),
    text: '✕',
    disabled: seatsSettling,
    onclick: () => {
      if (seat.bot) {
        removeSeat(request, code, seat, hostToken);
        return;
      }
      room.removing = seat.name;
      room.render('seat');
    },
  });
}

// A removal moves the seats after it up, under the host's finger: while one is being made,
// and for a moment after, every ✕ is disabled (a double tap removes one player, not two);
// the name sent makes the server refuse a removal meant for a seat that has moved (409).
const SEAT_SETTLE_MS = 700;
let seatsSettling = false;

function settleSeats(on) {
  seatsSettling = on;
  for (const button of document.querySelectorAll('[data-testid="remove-seat"], [data-testid="remove-confirm"][data-armed]')) button.disabled = on;
}

async function removeSeat(request, code, seat, hostToken) {
  if (seatsSettling) return;
  settleSeats(true);
  try {
    const path = `/api/rooms/${code}/seats/${seat.seat}?name=${encodeURIComponent(seat.name)}`;
    await request('seat', 'DELETE', path, undefined, hostToken);
  } finally {
    setTimeout(() => settleSeats(false), SEAT_SETTLE_MS);
  }
}

/**
 * The host's lobby requests, each made by the controls of an `area` (`bot`, `seat`,
 * `setup`, `variant`, `discussion`, `record`, `start`). A refusal is told next to those
 * controls (`<area>-error`, scrolled into sight), and the waiting room is drawn again from
 * the room's unchanged settings (the refused value does not stay in its input); the next
 * request of that area that goes through clears it. `why(exc)`: the refusal in words,
 * when the page can say more than the error's code.
 */
function requester(room) {
  return async (area, method, path, body, hostToken, why = null) => {
    try {
      const answer = await api(method, path, body, hostToken);
      if (room.lobbyErrors[area]) {
        const { [area]: gone, ...rest } = room.lobbyErrors;
        room.lobbyErrors = rest;
        room.render('refused');
      }
      return answer;
    } catch (exc) {
      room.lobbyErrors = { ...room.lobbyErrors, [area]: why?.(exc) ?? errorText(exc) };
      room.refusals += 1;
      room.render('refused');
      document.querySelector(`[data-testid="${area}-error"]`)?.scrollIntoView({ block: 'nearest' });
      return null;
    }
  };
}

/**
 * The settings as the host has made them: their last change while any is unanswered (it is
 * what the host's controls show and build on), else the room's.
 */
function hostSettings(room) {
  return room.settingsDraft ?? room.lobby.settings;
}

function hostPanel(room, hostToken, request) {
  const lobby = room.lobby;
  const code = lobby.code;
  const settings = hostSettings(room);
  const seats = lobby.seats.length;
  // each change goes on from the host's last one, not from the room's settings: a second
  // quick change (another role's count) made before the first came back must not undo it,
  // and the controls show the host's changes meanwhile, not the room's (a redraw by the
  // first's answer must not put an older count back in an input the next change reads).
  // Once every change sent is answered, the room's own settings are the start again (a
  // change the host made on another screen is not undone). Each sends the whole settings,
  // so they go one at a time, in the order made: two requests in flight at once may reach
  // the server in either order, and the older setup would win.
  const put = (area, patch, why) => {
    const body = { ...hostSettings(room), ...patch };
    room.settingsDraft = body;
    room.settingsSending += 1;
    const sent = room.settingsSent.then(async () => {
      const answer = await request(area, 'PUT', `/api/rooms/${code}/settings`, body, hostToken, why);
      room.settingsSending -= 1;
      if (answer === null) room.settingsFailed += 1; // (Start, waiting for it, does not go)
      if (room.settingsSending === 0) {
        // the room's settings as this answer has them (the room's own message, on the
        // socket, may come later: a change made meanwhile must not build on older ones);
        // a change refused while later ones are under way leaves the draft to them
        if (answer !== null) room.lobby = { ...room.lobby, settings: answer.settings };
        room.settingsDraft = null;
        room.render('settings'); // (the controls show the room's settings again)
      }
      return answer;
    });
    room.settingsSent = sent.catch(() => null); // (one failure does not stop the rest)
    return sent;
  };
  const kind = h(
    'select',
    { testid: 'bot-kind', id: 'bot-kind' },
    ['heuristic', 'search', 'random'].map((k) => h('option', { value: k, text: t(`bot.${k}`) })),
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
        onclick: () => request('bot', 'POST', `/api/rooms/${code}/bots`, { kind: kind.value }, hostToken),
      }),
    ),
    fieldError(room, 'bot'),
    setupFields(room, seats, put),
    variantFields(room, put),
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'discussion-seconds', text: t('waiting.discussion') }),
      h('input', {
        testid: 'discussion-seconds',
        id: 'discussion-seconds',
        type: 'text', // (digits, like the role counts: a redraw keeps its selection)
        inputmode: 'numeric',
        pattern: '[0-9]{1,4}',
        maxlength: 4,
        autocomplete: 'off',
        value: settings.discussion_seconds ?? 180,
        onchange: (event) => {
          const seconds = Number(event.target.value);
          if (seconds >= 0 && seconds <= 3600) put('discussion', { discussion_seconds: seconds });
        },
      }),
    ),
    fieldError(room, 'discussion'),
    h(
      'label',
      { class: 'check' },
      h('input', {
        type: 'checkbox',
        testid: 'publish-record',
        checked: Boolean(settings.public_record),
        onchange: (event) => put('record', { public_record: event.target.checked }),
      }),
      ' ',
      t('waiting.publish_record'),
    ),
    fieldError(room, 'record'),
    h(
      'label',
      { class: 'check', title: t('waiting.auto_stand_in_why') },
      h('input', {
        type: 'checkbox',
        testid: 'auto-stand-in',
        checked: settings.auto_stand_in ?? true,
        onchange: (event) => put('stand-in', { auto_stand_in: event.target.checked }),
      }),
      ' ',
      `🤖 ${t('waiting.auto_stand_in')}`,
    ),
    fieldError(room, 'stand-in'),
    onBoard() ? null : h('a', { testid: 'open-board', class: 'button open-board', href: `/board?room=${code}`, target: '_blank', text: `📺 ${t('waiting.open_board')}` }),
  );
}

/**
 * The host's Start, held at the foot of the screen however long the room's seats and
 * settings are (13 seats and the setup are four screens of a phone): why it cannot be
 * pressed yet, then a refusal of the last press, right over it.
 */
function startBar(room, hostToken, request) {
  const code = room.lobby.code;
  const problem = startProblem({ ...room.lobby, settings: hostSettings(room) }); // (Start waits for them)
  return h(
    'footer',
    { class: 'start-bar' },
    h('p', { testid: 'start-why', id: 'start-why', class: 'hint warn start-why', hidden: !problem, text: problem ?? '' }),
    fieldError(room, 'start'),
    h(
      'div',
      { class: 'row start-row' },
      h('button', {
        type: 'button',
        testid: 'start-game',
        class: 'primary big',
        disabled: Boolean(problem) || room.starting,
        'aria-describedby': problem ? 'start-why' : null,
        text: `▶ ${t('waiting.start')}`,
        // after the settings changes made before it, which the game starts with, and not
        // if one of them failed (its refusal is told by its control: the host looks again);
        // disabled meanwhile, in any redraw too (a second tap starts nothing)
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          room.starting = true;
          const failed = room.settingsFailed;
          await room.settingsSent;
          const go = room.settingsFailed === failed;
          if (go && (await request('start', 'POST', `/api/rooms/${code}/start`, undefined, hostToken)) !== null) return;
          room.starting = false;
          room.render('start');
        },
      }),
    ),
  );
}

/** Whether this page is the board itself (which does not offer to open the board). */
function onBoard() {
  return location.pathname === '/board';
}

/** the standard composition, or a custom count of each role. */
function setupFields(room, seats, put) {
  const settings = hostSettings(room);
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
        onchange: (event) => put('setup', { roles: event.target.checked ? rolesOf(counts) : null }),
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
          // (a text field that takes digits: a number field has no selection a redraw could
          // keep, and a digit typed over a selected count went after it, "23")
          h('input', {
            type: 'text',
            testid: 'role-count',
            data: { role },
            inputmode: 'numeric',
            pattern: '[0-9]{1,2}',
            maxlength: 2,
            autocomplete: 'off',
            value: counts[i],
            disabled: !custom,
            onchange: (event) => {
              // every count as the host has typed it now (a count changed a moment ago may
              // not be back from the server yet)
              const inputs = event.target.closest('.role-counts').querySelectorAll('[data-testid="role-count"]');
              const next = [...inputs].map((input) => Math.max(0, Number(input.value) || 0));
              // a refusal names the rule the count breaks
              put('setup', { roles: rolesOf(next) }, (exc) => (exc.code === 'bad_setup' ? setupProblem(next) : null));
            },
          }),
        ),
      ),
    ),
    h('p', {
      class: custom && total !== seats ? 'hint warn' : 'hint',
      text: custom
        ? t('waiting.custom_total', { roles: total, seats })
        : seats >= MIN_PLAYERS && seats <= MAX_PLAYERS
          ? t('waiting.standard', { seats })
          : t('waiting.standard_other', { n: Math.min(MAX_PLAYERS, Math.max(MIN_PLAYERS, seats)) }),
    }),
    fieldError(room, 'setup'),
  );
}

let variantsOpen = false; // the host opened the variants: redraws keep them open

/** The rule variants: each Ruleset option as a select (`variant`, `data-option`). */
function variantFields(room, put) {
  const ruleset = hostSettings(room).ruleset || {};
  return h(
    'details',
    { class: 'variants', open: variantsOpen, ontoggle: (event) => (variantsOpen = event.target.open) },
    h('summary', { text: t('waiting.variants') }),
    VARIANTS.map(({ option, values }) => {
      const current = option in ruleset ? ruleset[option] : values[0];
      const id = `variant-${option}`;
      return h(
        'div',
        { class: 'row variant-row' },
        h('label', { for: id, text: t(`variant.${option}`) }),
        h(
          'select',
          {
            id,
            testid: 'variant',
            data: { option },
            onchange: (event) => {
              const value = JSON.parse(event.target.value);
              const next = { ...(hostSettings(room).ruleset || {}) }; // (a change a moment ago too)
              if (value === values[0]) delete next[option];
              else next[option] = value;
              put('variant', { ruleset: next });
            },
          },
          values.map((value) =>
            h('option', { value: JSON.stringify(value), selected: value === current, text: t(`variant.${option}.${value}`) }),
          ),
        ),
      );
    }),
    fieldError(room, 'variant'),
  );
}
