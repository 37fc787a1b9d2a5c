/**
 * The player's decisions: one `choice-panel` for whatever `you.choices` offers now,
 * with one `confirm` that sends exactly one `act` message, and a `ballot-status` that
 * says whether the choice is being made, sent, or waiting for the others.
 *
 * The Hidden Phase has one screen for every role, with the same words on it: a
 * grid of every active player and "nobody", a row of four plans lettered A to D, and a
 * confirm. What they mean is in the held role card only: the Lawyer protects, the
 * Ombudsperson investigates, the Corrupt name a Tokhang target and pick one plan
 * of Nakaw and Suhol (R-23: steal or not, bribe or not), the Good Politicians name an
 * Auto Jail target; the COA and Citizens get decoys (a private note). Every
 * role's plans are a note of how sure the pick is, but the Corrupt's; and which letter
 * is which plan is drawn anew for each player each night (kept on the phone), so a lit
 * letter tells a neighbour nothing. "Nobody" and the quiet plan are chosen to begin with,
 * so one tap on confirm is always enough, and everyone waits the same way.
 */

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { cardName } from './words.js';

/** Fields whose `null` reads "abstain" (a vote) rather than "nobody" (a target). */
const ABSTAIN = new Set(['elect', 'witness_vote', 'forced_jail_vote', 'jail_vote']);

/** The night's four plans, by meaning: the Corrupt's Nakaw and Suhol, and the
 * note everyone else keeps of how sure their pick is. The first of each is the quiet one. */
const CORRUPT_PLANS = [
  { nakaw: false, suhol: false },
  { nakaw: true, suhol: false },
  { nakaw: false, suhol: true },
  { nakaw: true, suhol: true },
];
const DECOY_PLANS = [{ sure: 0 }, { sure: 1 }, { sure: 2 }, { sure: 3 }];
const LETTERS = ['A', 'B', 'C', 'D'];

/** What a plan means, in words. */
function planText(plan) {
  if ('nakaw' in plan) return t(`night.plan.${plan.nakaw ? 'steal' : 'no_steal'}.${plan.suhol ? 'suhol' : 'no_suhol'}`);
  return t(`night.plan.sure.${plan.sure}`);
}

/**
 * Which plan each letter is for this player tonight: drawn at random the first time the
 * night is shown on this phone and kept (so a reload shows the same letters), never the
 * same order for everyone, so that which letter is lit says nothing from across the table.
 */
function planOrder(code, year) {
  const key = `korapsyon:plans:${code}`;
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(key)) || {};
  } catch {
    kept = {};
  }
  if (!Array.isArray(kept[year])) {
    const order = [0, 1, 2, 3];
    const random = crypto.getRandomValues(new Uint32Array(4));
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = random[i] % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    kept = { [year]: order, [year - 1]: kept[year - 1] }; // (tonight's, and last night's)
    localStorage.setItem(key, JSON.stringify(kept));
  }
  return kept[year];
}

/** The plans in letter order for this player tonight: [{letter, plan}]. */
function lettered(view, code) {
  const plans = view.you.choices[0]?.action === 'corrupt' ? CORRUPT_PLANS : DECOY_PLANS;
  return planOrder(code, view.year).map((index, i) => ({ letter: LETTERS[i], plan: plans[index] }));
}

/**
 * What tonight's screen means for this player (shown in the held role card only):
 * the night action's instruction and what each letter A-D is tonight.
 */
export function nightMeaning(view, code) {
  const action = view.you.choices[0]?.action;
  if (view.step !== 'hidden' || !action) return null;
  const params = { cost: view.targets.auto_jail_cost, tokhang: view.targets.tokhang_cost };
  return {
    instruction: t(`night.prompt.${action}`, params),
    plans: lettered(view, code).map(({ letter, plan }) => t('night.plan_means', { letter, meaning: planText(plan) })),
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
    this.sending = null; // the draft key being sent (or kept until the connection is back)
    this.refusal = null; // {key, text}: the server refused the last confirm of that decision
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
        draft.plan = 0; // the quiet plan (tonight's letter for it differs per phone)
        for (const [field, values] of Object.entries(choice.options)) {
          draft[field] = values.includes(null) ? null : values[0];
        }
      }
      const submitted = view.you.submitted;
      if (submitted && submitted.action === choice.action) {
        for (const field of Object.keys(choice.options)) draft[field] = submitted[field] ?? null;
        if (choice.action === 'corrupt') {
          draft.plan = CORRUPT_PLANS.findIndex((p) => p.nakaw === Boolean(submitted.nakaw) && p.suhol === Boolean(submitted.suhol));
        }
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
    if (this.refusal?.key === key) this.refusal = null;
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
    const plans = corrupt ? CORRUPT_PLANS : DECOY_PLANS;
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
        { testid: 'field', class: 'field plans', data: { field: 'plan' }, role: 'group', 'aria-label': t('night.plans') },
        lettered(view, this.room.code).map(({ letter, plan }) => {
          const index = plans.indexOf(plan);
          return optionButton(t('night.plan', { letter }), plan, draft.plan === index, () => this.choose(key, 'plan', index));
        }),
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
    // kept until the connection is back, another choice may take its place
    const kept = this.room.queued(key);
    const busy = kept ? JSON.stringify(strip(this.room.queue.get(key).action)) === JSON.stringify(strip(action)) : this.sending === key;
    return h('button', {
      type: 'button',
      testid: 'confirm',
      class: 'primary big confirm',
      disabled: !ready || same || busy,
      text: `✔ ${label}`,
      onclick: () => this.send(key, action, this.noteOf(view, choice, draft)),
    });
  }

  /** The action this draft makes, in its record form (one `act` message). */
  actionOf(view, choice, draft) {
    const action = { action: choice.action, player: view.you.name };
    for (const field of Object.keys(choice.options)) action[field] = draft[field] ?? null;
    if (choice.action === 'corrupt') Object.assign(action, CORRUPT_PLANS[draft.plan]);
    return action;
  }

  /** The night note a decoy's plan asks for: the name picked (or the target), and how
   * sure (nothing is noted for the quiet plan). */
  noteOf(view, choice, draft) {
    if (view.step !== 'hidden' || choice.action === 'corrupt' || !draft.plan) return null;
    const name = draft.target ?? draft[Object.keys(choice.options)[0]] ?? null;
    if (!name) return null;
    return { year: view.year, name: `${name} ${'✔'.repeat(draft.plan)}` };
  }

  /**
   * Send one `act` (kept until the connection is back when there is none: RoomState.act);
   * a refusal is told in the ballot's status; a night `note` is kept once the act is
   * accepted.
   */
  async send(key, action, note) {
    this.sending = key;
    this.refusal = null;
    this.changed();
    inSight();
    const result = await this.room.act(key, action);
    if (result.replaced) return; // a newer choice for this decision was kept instead
    if (this.sending === key) this.sending = null;
    if (result.error) this.refusal = { key, text: result.error };
    if (result.ok && note && note.name) {
      const notes = nightNotes(this.room.code);
      notes[note.year] = note.name;
      localStorage.setItem(NOTES_KEY(this.room.code), JSON.stringify(notes));
    }
    this.changed();
    if (result.error) inSight();
  }

  /**
   * `ballot-status`: choosing, offline (choosing, not connected), queued (confirmed while
   * not connected: sent when the connection is back), sent (no answer yet), refused (and
   * why) or waiting (for N others).
   */
  status(view, key) {
    const submitted = view.you.submitted;
    const ballot = view.ballot || {};
    let state = 'choosing';
    let text = t('ballot.choosing');
    if (this.room.queued(key)) {
      state = 'queued';
      text = t('ballot.queued');
    } else if (this.refusal?.key === key) {
      state = 'refused';
      text = t('ballot.refused', { reason: this.refusal.text });
    } else if (this.sending === key) {
      state = 'sent';
      text = t('ballot.sent');
    } else if (submitted) {
      state = 'waiting';
      if (view.step === 'hidden' || ballot.cast === undefined) text = t('ballot.night_waiting');
      else {
        const left = Math.max(0, ballot.voters.length - ballot.cast);
        text = left ? tn('ballot.waiting', left) : t('ballot.all_in');
      }
    } else if (this.room.connection === 'closed') {
      state = 'offline';
      text = t('ballot.offline');
    }
    const icon = { choosing: '✏', offline: '⚠', queued: '⚠', refused: '⚠', sent: '📤', waiting: '⏳' }[state];
    return h('p', { testid: 'ballot-status', class: `ballot-status ${state}`, role: 'status', data: { state }, text: `${icon} ${text}` });
  }
}

/** The ballot's status in sight (under the confirm just tapped: what became of it). */
function inSight() {
  document.querySelector('[data-testid="ballot-status"]')?.scrollIntoView({ block: 'nearest' });
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
