/**
 * The player's decisions: one `choice-panel` for whatever `you.choices` offers now,
 * with one `confirm` that sends exactly one `act` message, and a `ballot-status` that
 * says whether the choice is being made, sent, or waiting for the others.
 *
 * The Hidden Phase has one screen for every role, with the same words on it: a
 * grid of every active player and "nobody", two switches labelled A and B, and a
 * confirm. What they mean is in the held role card only: the Lawyer protects,
 * the Ombudsperson investigates, the Corrupt name a Tokhang target and switch
 * Nakaw and Suhol, the Good Politicians name an Auto Jail target; the COA
 * and Citizens get decoys (a private note) that send `ready`. "Nobody" is chosen to
 * begin with, so one tap on confirm is always enough, and everyone waits the same way.
 */

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { cardName } from './words.js';

/** Fields whose `null` reads "abstain" (a vote) rather than "nobody" (a target). */
const ABSTAIN = new Set(['elect', 'witness_vote', 'forced_jail_vote', 'jail_vote']);

/** The night screen's switches: the Corrupt's are real, everyone else's decoys. */
const CORRUPT_SWITCHES = ['nakaw', 'suhol'];
const DECOY_SWITCHES = ['sure', 'note'];
const SWITCH_LETTERS = ['A', 'B'];

/**
 * What tonight's screen means for this player (shown in the held role card only):
 * the night action's instruction and what switches A and B do.
 */
export function nightMeaning(view) {
  const action = view.you.choices[0]?.action;
  if (view.step !== 'hidden' || !action) return null;
  const switches = action === 'corrupt' ? CORRUPT_SWITCHES : DECOY_SWITCHES;
  const params = { cost: view.targets.auto_jail_cost, tokhang: view.targets.tokhang_cost };
  return {
    instruction: t(`night.prompt.${action}`, params),
    switches: switches.map((name, i) => t('night.switch_means', { letter: SWITCH_LETTERS[i], meaning: t(`night.switch.${name}`) })),
  };
}

const NOTES_KEY = (code) => `korapsyon:notes:${code}`;

/** The decoy's private notes (the night pick kept with the "note" switch), by Year. */
export function nightNotes(code) {
  try {
    return JSON.parse(localStorage.getItem(NOTES_KEY(code))) || {};
  } catch {
    return {};
  }
}

export class Decisions {
  /** `room`: the page's RoomState; `redraw()` after local changes. */
  constructor(room, redraw) {
    this.room = room;
    this.redraw = redraw;
    this.drafts = new Map(); // "year:step:action" -> {field: value}
    this.sending = null; // the draft key being sent
    this.version = 0; // counts local changes (drafts, sending): the panel redraws on them
  }

  /** The choice panel for `view` (a player's view), or null when there is no choice. */
  panel(view) {
    const you = view.you;
    if (!you || you.choices.length === 0) return null;
    const choice = you.choices[0];
    const key = `${view.year}:${view.step}:${choice.action}`;
    const draft = this.draftFor(key, view, choice);
    const night = view.step === 'hidden';
    const body = night ? this.nightScreen(view, choice, draft, key) : this.dayFields(view, choice, draft, key);
    return h(
      'section',
      { testid: 'choice-panel', class: night ? 'choice-panel night' : 'choice-panel', data: { action: choice.action }, 'aria-labelledby': 'choice-prompt' },
      body,
      this.confirmButton(view, choice, draft, key),
      this.status(view, key),
    );
  }

  /**
   * The draft of this decision: at night "nobody" and both switches off to begin with (one
   * tap on confirm is enough), by day nothing; then whatever was last submitted.
   */
  draftFor(key, view, choice) {
    if (!this.drafts.has(key)) {
      const draft = {};
      if (view.step === 'hidden') {
        draft.target = null; // the decoy's grid
        for (const s of [...CORRUPT_SWITCHES, ...DECOY_SWITCHES]) draft[s] = false;
        for (const [field, values] of Object.entries(choice.options)) {
          draft[field] = values.includes(null) ? null : values[0];
        }
      }
      const submitted = view.you.submitted;
      if (submitted && submitted.action === choice.action) {
        for (const field of Object.keys(choice.options)) draft[field] = submitted[field] ?? null;
      }
      this.drafts.set(key, draft);
    }
    return this.drafts.get(key);
  }

  choose(key, field, value, multi, limit) {
    const draft = this.drafts.get(key);
    if (multi) {
      const chosen = new Set(draft[field] || []);
      if (chosen.has(value)) chosen.delete(value);
      else if (chosen.size < limit) chosen.add(value);
      draft[field] = [...chosen];
    } else {
      draft[field] = value;
    }
    this.changed();
  }

  changed() {
    this.version += 1;
    this.redraw();
  }

  // ---------------------------------------------------------------- the night
  nightScreen(view, choice, draft, key) {
    const you = view.you;
    const corrupt = choice.action === 'corrupt';
    const field = corrupt ? 'tokhang' : 'target';
    const allowed = choice.options[field] ?? null; // null: a decoy, any other player
    const active = view.players.filter((p) => p.status === 'active').map((p) => p.name);
    const barred = (name) => !(allowed ? allowed.includes(name) : name !== you.name);
    const switches = corrupt ? CORRUPT_SWITCHES : DECOY_SWITCHES;
    return h(
      'div',
      { testid: 'night-screen', class: 'night-screen' },
      h('h3', { id: 'choice-prompt', class: 'prompt', text: `🌙 ${t('night.prompt')}` }),
      h(
        'div',
        { testid: 'field', class: 'field grid', data: { field }, role: 'group', 'aria-labelledby': 'choice-prompt' },
        [null, ...active].map((name) => {
          const label = name === null ? `∅ ${t('option.nobody')}` : [h('bdi', { text: name }), name === you.name ? ` (${t('night.you')})` : null];
          const refused = name !== null && barred(name);
          return optionButton(label, name, draft[field] === name, () => this.choose(key, field, name), refused);
        }),
      ),
      h(
        'div',
        { class: 'switches' },
        switches.map((name, index) =>
          h(
            'button',
            {
              type: 'button',
              role: 'switch',
              testid: 'toggle',
              class: 'toggle',
              data: { field: name },
              'aria-checked': String(Boolean(draft[name])),
              onclick: () => this.choose(key, name, !draft[name]),
            },
            h('span', { class: 'switch-track', 'aria-hidden': 'true' }, h('span', { class: 'switch-knob' })),
            h('span', { class: 'switch-label', text: t('night.switch', { letter: SWITCH_LETTERS[index] }) }),
            h('span', { class: 'switch-state', text: draft[name] ? t('switch.on') : t('switch.off') }),
          ),
        ),
      ),
    );
  }

  // ---------------------------------------------------------------- the day
  dayFields(view, choice, draft, key) {
    const prompt = h('h3', { id: 'choice-prompt', class: 'prompt', text: promptText(view, choice) });
    const fields = Object.entries(choice.options).map(([field, values]) => {
      const multi = choice.pick > 0;
      const chosen = multi ? draft[field] || [] : draft[field];
      return h(
        'div',
        {
          testid: 'field',
          class: choice.action === 'pick_project' ? 'field cards' : 'field grid',
          data: { field, multi: multi ? 'true' : null },
          role: 'group',
          'aria-labelledby': 'choice-prompt',
        },
        values.map((value) =>
          optionButton(
            optionLabel(view, choice.action, field, value),
            value,
            multi ? chosen.includes(value) : chosen === value,
            () => this.choose(key, field, value, multi, choice.pick),
          ),
        ),
        multi ? h('p', { class: 'hint', role: 'status', text: t('choice.picked', { n: chosen.length, of: choice.pick }) }) : null,
      );
    });
    return [prompt, ...fields];
  }

  // ---------------------------------------------------------------- sending
  confirmButton(view, choice, draft, key) {
    const action = this.actionOf(view, choice, draft);
    const submitted = view.you.submitted;
    const same = submitted && JSON.stringify(strip(submitted)) === JSON.stringify(strip(action));
    const ready = Object.entries(choice.options).every(([field]) =>
      choice.pick ? (draft[field] || []).length === choice.pick : field in draft && draft[field] !== undefined,
    );
    const label = submitted ? t('choice.change') : t(`confirm.${view.step === 'hidden' ? 'night' : choice.action}`);
    return h('button', {
      type: 'button',
      testid: 'confirm',
      class: 'primary big confirm',
      disabled: !ready || same || this.sending === key,
      text: `✔ ${label}`,
      onclick: () => this.send(key, action, this.noteOf(view, choice, draft)),
    });
  }

  /** The action this draft makes, in its record form (one `act` message). */
  actionOf(view, choice, draft) {
    const action = { action: choice.action, player: view.you.name };
    for (const field of Object.keys(choice.options)) action[field] = draft[field] ?? null;
    return action;
  }

  /** The night note the decoy switches ask for: the pick, marked if "sure". */
  noteOf(view, choice, draft) {
    if (view.step !== 'hidden' || choice.action === 'corrupt' || !draft.note || !draft.target) return null;
    return { year: view.year, name: draft.sure ? `${draft.target} ✔` : draft.target };
  }

  /** Send one `act`; a night `note` is kept once the act is accepted. */
  async send(key, action, note) {
    this.sending = key;
    this.changed();
    const ok = await this.room.attempt(this.room.link.act(action));
    this.sending = null;
    if (ok && note && note.name) {
      const notes = nightNotes(this.room.code);
      notes[note.year] = note.name;
      localStorage.setItem(NOTES_KEY(this.room.code), JSON.stringify(notes));
    }
    this.changed();
  }

  /** `ballot-status`: choosing, sent (no answer yet) or waiting (for N others). */
  status(view, key) {
    const submitted = view.you.submitted;
    const ballot = view.ballot || {};
    let state = 'choosing';
    let text = t('ballot.choosing');
    if (this.sending === key) {
      state = 'sent';
      text = t('ballot.sent');
    } else if (submitted) {
      state = 'waiting';
      if (view.step === 'hidden' || ballot.cast === undefined) text = t('ballot.night_waiting');
      else {
        const left = Math.max(0, ballot.voters.length - ballot.cast);
        text = left ? tn('ballot.waiting', left) : t('ballot.all_in');
      }
    }
    const icon = { choosing: '✏', sent: '📤', waiting: '⏳' }[state];
    return h('p', { testid: 'ballot-status', class: `ballot-status ${state}`, role: 'status', data: { state }, text: `${icon} ${text}` });
  }
}

/** An action without the fields that do not say what was chosen. */
function strip(action) {
  const { auto, player, ...rest } = action;
  return Object.fromEntries(Object.entries(rest).sort());
}

/**
 * An option button. One the rules refuse (`barred`) keeps the look, the words and the
 * structure of the others (R-70: the night grids of all roles look alike) but is
 * `aria-disabled` and does nothing; the held role card says why.
 */
function optionButton(label, value, pressed, onclick, barred = false) {
  return h(
    'button',
    {
      type: 'button',
      testid: 'option',
      class: pressed ? 'option chosen' : 'option',
      data: { value: JSON.stringify(value) },
      'aria-pressed': String(pressed),
      'aria-disabled': barred ? 'true' : null,
      onclick: barred ? null : onclick,
    },
    pressed ? '✔ ' : null,
    label,
  );
}

function promptText(view, choice) {
  const president = view.president?.name ?? '';
  const params = {
    n: choice.pick,
    name: view.witness ?? view.forced_vote ?? '',
    target: view.you.investigation?.target ?? '',
    president,
  };
  return t(`prompt.${choice.action}`, params);
}

/** How an option reads: a name, a card, yes/no, nobody or abstain. */
function optionLabel(view, action, field, value) {
  if (value === null) return ABSTAIN.has(action) ? `∅ ${t('option.abstain')}` : `∅ ${t('option.nobody')}`;
  if (typeof value === 'boolean') return t(`option.${field}.${value}`);
  if (field === 'card') {
    const card = (view.project?.offered || []).find((c) => c.id === value);
    if (!card) return value;
    return h(
      'span',
      { class: 'card-face' },
      h('strong', { text: `${card.id.startsWith('L') ? '🏛' : '🏠'} ${cardName(card.id)}` }),
      h('span', { text: t('card.cost', { cost: card.cost }) }),
      h('span', { text: t('card.kickback', { kickback: card.kickback }) }),
      h('span', { text: t('card.committee', { size: card.committee }) }),
    );
  }
  return h('bdi', { text: String(value) }); // a name
}
