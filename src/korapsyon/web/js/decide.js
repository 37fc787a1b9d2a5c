/**
 * The player's decisions: one `choice-panel` for whatever `you.choices` offers now,
 * with one `confirm` that sends exactly one `act` message, and a `ballot-status` that
 * says whether the choice is being made, sent, or waiting for the others.
 *
 * The Hidden Phase (R-70) has one screen for every role, with the same words on it: a
 * grid of every active player and "nobody", a row of four plans lettered A to D, and a
 * confirm. What they mean is in the held role card only: the Lawyer protects (R-21), the
 * Ombudsperson investigates (R-22), the Corrupt name a Tokhang target and pick one plan
 * of Nakaw and Suhol (R-23: steal or not, bribe or not), the Good Politicians name an
 * Auto Jail target (R-24); the COA and Citizens get decoys (a private note). Every
 * role's plans are a note of how sure the pick is, but the Corrupt's; and which letter
 * is which plan is drawn anew for each player each night (kept on the phone), so a lit
 * letter tells a neighbour nothing. "Nobody" and the quiet plan are chosen to begin with,
 * so one tap on confirm is always enough, and everyone waits the same way. A name the
 * rules refuse tonight stays in the grid, looking like the others; tapped, it shows the
 * same line on every phone ("hold your card to see why"), and the held card says why.
 *
 * By day every ballot names what it decides: the term of the office, the project's card
 * with its cost and what passing or failing does, the player on trial; and a player who
 * is not asked is told who is deciding what. The Ombudsperson's Witness (R-35), once per
 * game, asks before it sends. When a step ends with a pick on the screen that did not
 * count (not confirmed, or changed and not sent again), the next screen says so once.
 *
 * Why one module of ~790 lines: the night screen and every day ballot share one draft, one
 * confirm and one status line (and what became of the draft when its step ended), and
 * whether two roles' screens could tell them apart (R-70) is checked by reading them side
 * by side.
 */

import { armedAfter, h } from './dom.js';
import { t, tn } from './i18n.js';
import { cardName, nameList } from './words.js';

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
    barred: barredReasons(view),
  };
}

/** The night grid's field for this player's action, and the names it may take (null: a
 * decoy's, anyone but oneself). */
function nightField(view) {
  const choice = view.you.choices[0];
  const field = choice.action === 'corrupt' ? 'tokhang' : 'target';
  return { field, allowed: choice.options[field] ?? null };
}

/** The active players the rules refuse in tonight's grid. */
function barredNames(view) {
  const { allowed } = nightField(view);
  const me = view.you.name;
  return view.players
    .filter((p) => p.status === 'active')
    .map((p) => p.name)
    .filter((name) => (allowed ? !allowed.includes(name) : name === me));
}

/**
 * Why each refused name is refused tonight, in words for the held role card only (the
 * grid shows every role the same neutral line, R-70).
 */
export function barredReasons(view) {
  const action = view.you.choices[0]?.action;
  if (view.step !== 'hidden' || !action) return [];
  const me = view.you.name;
  return barredNames(view).map((name) => {
    const self = name === me;
    let key = 'night.barred.other';
    if (action === 'protect') key = self ? 'night.barred.protect_self' : 'night.barred.protect';
    else if (action === 'investigate') key = 'night.barred.investigate_self';
    else if (action === 'auto_jail') key = 'night.barred.president_jail';
    else if (action === 'corrupt') key = 'night.barred.president_tokhang'; // R-33 variant
    else if (action === 'ready') key = 'night.barred.note_self';
    return { name, text: t(key, { name }) };
  });
}

/**
 * What a player who is asked nothing now is waiting for, naming who decides what
 * (outside the Hidden Phase, where everyone decides at once, R-70).
 */
export function whoDecides(view) {
  const president = view.president?.name ?? '';
  const project = view.project;
  const card = project?.card ? cardName(project.card) : '';
  switch (view.step) {
    case 'pick_project':
      return t('waiting_for.pick_project', {
        president,
        small: cardName(project?.offered?.[0]?.id),
        large: cardName(project?.offered?.[1]?.id),
      });
    case 'pick_committee':
      return t('waiting_for.pick_committee', { president, card, n: project?.committee_size ?? 0 });
    case 'committee_vote':
      return t('waiting_for.committee_vote', { card, names: nameList(project?.committee) });
    case 'stand':
    case 'elect':
    case 'elect_runoff':
    case 'witness_vote':
    case 'forced_jail_vote':
    case 'jail_vote':
    case 'jail_runoff':
      return t(`waiting_for.${view.step}`, { name: view.witness ?? view.forced_vote ?? '' });
    default:
      return t('phone.others_deciding');
  }
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

/** How many of a committee are chosen, and, after a tap on one more than it takes, how to
 * change who (the tap took nobody: a silent screen left the President wondering). */
function pickedHint(n, of, full) {
  const text = full && n === of ? t('choice.full', { of }) : t('choice.picked', { n, of });
  return h('p', { testid: 'picked', class: full && n === of ? 'hint warn' : 'hint', role: 'status', text });
}

/** Whether `draft` answers every field of `choice` (Confirm is enabled only then). */
function isReady(choice, draft) {
  return Object.keys(choice.options).every((field) =>
    choice.pick ? (draft[field] || []).length === choice.pick : field in draft && draft[field] !== undefined,
  );
}

export class Decisions {
  /** `room`: the page's RoomState; `redraw()` after local changes. */
  constructor(room, redraw) {
    this.room = room;
    this.redraw = redraw;
    this.drafts = new Map(); // "year:step:action" -> {field: value}
    this.sending = null; // the draft key being sent (or kept until the connection is back)
    this.refusal = null; // {key, text}: the server refused the last confirm of that decision
    this.barredTap = null; // the draft key whose grid had a refused name tapped last
    this.fullTap = null; // the draft key whose committee, full, had one more name tapped last
    this.asking = null; // {key, at}: the Witness asked "Testify against …?" (at: when)
    this.touched = new Set(); // the draft keys the person has changed
    this.onScreen = null; // {turn, key, view, choice, submitted}: the decision shown now
    this.sentDrafts = new Map(); // draft key -> the draft as last confirmed (sent or on its way)
    this.missed = null; // {turn, changed}: the last step's pick did not count (missedNote)
    this.version = 0; // counts local changes (drafts, sending): the panel redraws on them
  }

  /** The choice panel for `view` (a player's view), or null when there is no choice. */
  panel(view) {
    const you = view.you;
    if (!you || you.choices.length === 0) return null;
    const choice = you.choices[0];
    const key = `${view.year}:${view.step}:${choice.action}`;
    if (choice.action === 'witness') return this.witnessPanel(view, choice, key);
    const draft = this.draftFor(key, view, choice);
    const night = view.step === 'hidden';
    const unsent = this.unsent(view, choice, draft);
    const body = night ? this.nightScreen(view, choice, draft, key) : this.dayFields(view, choice, draft, key, unsent);
    return h(
      'section',
      { testid: 'choice-panel', class: night ? 'choice-panel night' : 'choice-panel', data: { action: choice.action }, 'aria-labelledby': 'choice-prompt' },
      body,
      // (kept in view at the bottom of the screen while the panel is: R-70, the same bar
      // for every role; Confirm never below the fold, however many players)
      h(
        'div',
        { class: 'confirm-bar' },
        night
          ? h('p', { testid: 'barred-note', id: 'barred-note', class: 'barred-note', role: 'status', hidden: this.barredTap !== key, text: `✋ ${t('night.barred')}` })
          : null,
        this.confirmButton(view, choice, draft, key, unsent),
        this.status(view, key, unsent, isReady(choice, draft)),
      ),
    );
  }

  /**
   * The draft of this decision: at night "nobody" and both switches off to begin with (one
   * tap on confirm is enough), by day nothing; then whatever was last submitted.
   */
  draftFor(key, view, choice) {
    if (!this.drafts.has(key)) {
      this.drafts.set(key, submittedDraft(view, choice, view.you.submitted));
    }
    return this.drafts.get(key);
  }

  choose(key, field, value, multi, limit) {
    const draft = this.drafts.get(key);
    if (multi) {
      const chosen = new Set(draft[field] || []);
      if (chosen.has(value)) chosen.delete(value);
      else if (chosen.size < limit) chosen.add(value);
      else this.fullTap = key; // (nothing taken: the hint says how to change who)
      draft[field] = [...chosen];
    } else {
      draft[field] = value;
    }
    if (this.refusal?.key === key) this.refusal = null;
    if (this.fullTap === key && (draft[field] || []).length < limit) this.fullTap = null;
    this.barredTap = null;
    this.touched.add(key);
    this.changed();
  }

  /** A refused name was tapped: the same neutral line on every phone. */
  refused(key) {
    this.barredTap = key;
    this.changed();
  }

  changed() {
    this.version += 1;
    this.redraw();
  }

  // ---------------------------------------------------------------- a pick that did not count
  /**
   * Follow `view` (before the panel is drawn): when the decision that was on the screen
   * goes away (its step ended: the timer, R-72, or the host) while the person's pick
   * differs from what counted for them - never confirmed (the default was given), or
   * changed and not sent again - the next screen says so once (`missedNote`), in the same
   * words whatever the role, until it is tapped away or the step after ends.
   * `standIn`: a bot plays this seat, its acts count (nothing to tell).
   */
  follow(view, standIn = false) {
    const choice = view.you?.choices?.[0];
    const turn = `${view.year}:${view.step}`;
    const key = choice ? `${turn}:${choice.action}` : null;
    if (this.missed && this.missed.turn !== turn) this.dismissMissed();
    const was = this.onScreen;
    if (was && was.key !== key) {
      this.onScreen = null;
      const changed = standIn || view.status === 'finished' || this.room.queued(was.key) ? null : this.notCounted(was);
      if (changed !== null) {
        this.missed = { turn, changed };
        this.version += 1;
      }
    }
    if (!choice || choice.action === 'witness') return; // (the Witness asks before it sends)
    const submitted = view.you.submitted ?? (was?.key === key ? was.submitted : null);
    this.onScreen = { turn, key, view, choice, submitted };
  }

  /**
   * Whether the pick on the screen of the decision `shown` did not count: null when it
   * did (or nothing was picked), else whether a confirmed choice counted instead. The
   * screen's draft is compared, not the act: at night every role's grid and plans alike
   * a Citizen's pick is a note, and is told the same way).
   */
  notCounted(shown) {
    const { key, view, choice, submitted } = shown;
    const draft = this.drafts.get(key);
    if (!draft || !this.touched.has(key)) return null;
    const confirmed = this.sentDrafts.get(key) ?? (submitted ? submittedDraft(view, choice, submitted) : null);
    if (confirmed) return same(draft, confirmed) ? null : true;
    // nothing confirmed: R-72's default was given (the night's first draft; by day nobody,
    // abstain, no, Oppose; a card or a committee drawn at random: never the pick itself)
    const quiet = view.step === 'hidden' ? initialDraft(view, choice) : dayDefault(choice);
    return quiet && same(draft, quiet) ? null : false;
  }

  /** The note that the last step's pick did not count (null: none). */
  missedNote() {
    if (!this.missed) return null;
    return h(
      'div',
      { testid: 'missed-note', class: 'missed-note', role: 'status' },
      h('p', { text: `⚠ ${t(this.missed.changed ? 'ballot.missed_changed' : 'ballot.missed')}` }),
      h('button', { type: 'button', testid: 'missed-ok', class: 'small', text: t('ballot.missed_ok'), onclick: () => this.dismissMissed(true) }),
    );
  }

  dismissMissed(redraw = false) {
    this.missed = null;
    this.version += 1;
    if (redraw) this.redraw();
  }

  // ---------------------------------------------------------------- the Witness
  /**
   * The Ombudsperson's Witness, once per game and not to be undone: the first tap on
   * "Testify" asks, in place ("Testify against Ana? Once per game.", "Not now" /
   * "Testify"), and that "Testify" takes taps only a moment after it appears, so a
   * double tap sends nothing. There is nothing to choose: no "choose, then confirm" line.
   */
  witnessPanel(view, choice, key) {
    const name = view.you.investigation?.target ?? '';
    const asking = this.asking?.key === key;
    const busy = this.sending === key || this.room.queued(key);
    let body;
    if (!asking) {
      body = h('button', {
        type: 'button',
        testid: 'confirm',
        class: 'primary big confirm',
        disabled: busy,
        text: `✔ ${t('confirm.witness')}`,
        onclick: () => {
          this.asking = { key, at: performance.now() };
          this.changed();
          // (the question in its place: the safe answer has the focus, as this button had)
          document.querySelector('[data-testid="witness-not-now"]')?.focus({ preventScroll: true });
        },
      });
    } else {
      const yes = h('button', {
        type: 'button',
        testid: 'witness-yes',
        class: 'primary big',
        text: t('discussion.witness_yes'),
        onclick: () => {
          this.asking = null;
          this.send(key, this.actionOf(view, choice, {}), null);
        },
      });
      armedAfter(yes, this.asking.at); // (a double tap's second lands on it, disabled)
      body = h(
        'div',
        { testid: 'witness-ask', class: 'witness-ask', role: 'group', 'aria-labelledby': 'witness-ask-q' },
        h('p', { id: 'witness-ask-q', class: 'witness-ask-q', text: t('discussion.witness_ask', { name }) }),
        h(
          'div',
          { class: 'witness-ask-buttons' },
          h('button', {
            type: 'button',
            testid: 'witness-not-now',
            class: 'big',
            text: t('discussion.witness_not_now'),
            onclick: () => {
              this.asking = null;
              this.changed();
            },
          }),
          yes,
        ),
      );
    }
    const status = this.status(view, key, false, true);
    return h(
      'section',
      { testid: 'choice-panel', class: 'choice-panel', data: { action: choice.action }, 'aria-labelledby': 'choice-prompt' },
      h('h2', { id: 'choice-prompt', class: 'prompt', text: promptText(view, choice) }),
      h('div', { class: 'confirm-bar' }, body, status.dataset.state === 'choosing' ? null : status),
    );
  }

  // ---------------------------------------------------------------- the night
  nightScreen(view, choice, draft, key) {
    const you = view.you;
    const corrupt = choice.action === 'corrupt';
    const { field } = nightField(view);
    const active = view.players.filter((p) => p.status === 'active').map((p) => p.name);
    const barred = new Set(barredNames(view));
    const plans = corrupt ? CORRUPT_PLANS : DECOY_PLANS;
    return h(
      'div',
      { testid: 'night-screen', class: 'night-screen' },
      h('h2', { id: 'choice-prompt', class: 'prompt', text: `🌙 ${t('night.prompt')}` }),
      h(
        'div',
        { testid: 'field', class: 'field grid names', data: { field }, role: 'group', 'aria-labelledby': 'choice-prompt' },
        [null, ...active].map((name) => {
          const label = name === null ? `∅ ${t('option.nobody')}` : h('bdi', { text: name });
          const refused = name !== null && barred.has(name);
          const onclick = refused ? () => this.refused(key) : () => this.choose(key, field, name);
          return optionButton(label, name, draft[field] === name, onclick, { barred: refused, you: name === you.name });
        }),
      ),
      h(
        'div',
        { testid: 'field', class: 'field plans', data: { field: 'plan' }, role: 'group', 'aria-label': t('night.plans') },
        lettered(view, this.room.code).map(({ letter, plan }) => {
          const index = plans.indexOf(plan);
          const chosen = draft.plan === index;
          // "Plan" small over a big letter, read as "Plan A" (the ✔ is for the eyes:
          // aria-pressed says it to a screen reader)
          const label = [
            h('span', { class: 'plan-word', text: t('night.plan_word') }),
            h('br'),
            h('span', { class: 'plan-letter' }, chosen ? h('span', { 'aria-hidden': 'true', text: '✔ ' }) : null, letter),
          ];
          return optionButton(label, plan, chosen, () => this.choose(key, 'plan', index), { mark: false });
        }),
      ),
    );
  }

  // ---------------------------------------------------------------- the day
  dayFields(view, choice, draft, key, unsent) {
    const prompt = h('h2', { id: 'choice-prompt', class: 'prompt', text: promptText(view, choice) });
    const fields = Object.entries(choice.options).map(([field, values]) => {
      const multi = choice.pick > 0;
      const chosen = multi ? draft[field] || [] : draft[field];
      const names = !['card', 'support', 'stand', 'jail'].includes(field);
      return h(
        'div',
        {
          testid: 'field',
          class: choice.action === 'pick_project' ? 'field cards' : names ? 'field grid names' : 'field grid',
          data: { field, multi: multi ? 'true' : null },
          role: 'group',
          'aria-labelledby': 'choice-prompt',
        },
        values.map((value) =>
          optionButton(
            optionLabel(view, choice, field, value),
            value,
            multi ? chosen.includes(value) : chosen === value,
            () => this.choose(key, field, value, multi, choice.pick),
            // (another shown than the vote confirmed: the one that counts says so, where the
            // finger is, and the ballot's status below says why)
            { you: names && value === view.you.name, counted: unsent && !multi && view.you.submitted[field] === value },
          ),
        ),
        multi ? pickedHint(chosen.length, choice.pick, this.fullTap === key) : null,
      );
    });
    return [prompt, subject(view, choice), ...fields];
  }

  // ---------------------------------------------------------------- sending
  /** Whether a choice was confirmed and the screen now shows another, not sent. At night
   * the screen is compared (the grid's name, the plan's letter), for every role alike
   * a decoy's act is `ready` whatever it picks, so comparing acts gave a Citizen's
   * phone no "Change" where an Ombudsperson's had one. */
  unsent(view, choice, draft) {
    const submitted = view.you.submitted;
    if (!submitted) return false;
    if (view.step === 'hidden') {
      const key = `${view.year}:${view.step}:${choice.action}`;
      return !same(draft, this.sentDrafts.get(key) ?? submittedDraft(view, choice, submitted));
    }
    return JSON.stringify(strip(submitted)) !== JSON.stringify(strip(this.actionOf(view, choice, draft)));
  }

  confirmButton(view, choice, draft, key, unsent) {
    const action = this.actionOf(view, choice, draft);
    const submitted = view.you.submitted;
    const same = submitted && !unsent;
    const ready = isReady(choice, draft);
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
    const before = this.sentDrafts.get(key);
    const draft = this.drafts.get(key);
    if (draft) this.sentDrafts.set(key, structuredClone(draft)); // (it may land as its step ends)
    this.refusal = null;
    this.changed();
    inSight();
    const result = await this.room.act(key, action);
    if (result.replaced) return; // a newer choice for this decision was kept instead
    if (this.sending === key) this.sending = null;
    if (result.error || result.dropped) {
      if (before) this.sentDrafts.set(key, before); // (it did not land: the one before counts)
      else this.sentDrafts.delete(key);
    }
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
   * why), unsent (a choice was confirmed, and the screen now shows another: the confirmed
   * one still counts) or waiting (for N others).
   */
  status(view, key, unsent, ready) {
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
    } else if (unsent) {
      state = 'unsent'; // (not "received": what the screen shows is not what counts)
      text = t('ballot.unsent');
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
    const icon = { choosing: '✏', offline: '⚠', queued: '⚠', refused: '⚠', sent: '📤', unsent: '⚠', waiting: '⏳' }[state];
    // (in a step's last seconds, a choice not confirmed is said not to count - and with
    // nothing chosen yet, Confirm still disabled, the person is told to choose: the
    // stylesheet shows `hurry` while the clock is urgent, timer.js)
    const hurry = state === 'choosing' ? t(ready ? 'ballot.hurry' : 'ballot.hurry_choose') : null;
    return h('p', { testid: 'ballot-status', class: `ballot-status ${state}`, role: 'status', data: { state, hurry }, text: `${icon} ${text}` });
  }
}

/** The ballot's status in sight (under the confirm just tapped: what became of it). */
function inSight() {
  document.querySelector('[data-testid="ballot-status"]')?.scrollIntoView({ block: 'nearest' });
}

/** A decision's draft before the person touches it: at night "nobody" and the quiet plan
 * (R-72's default), by day nothing. */
function initialDraft(view, choice) {
  const draft = {};
  if (view.step === 'hidden') {
    draft.target = null; // the decoy's grid
    draft.plan = 0; // the quiet plan (tonight's letter for it differs per phone)
    for (const [field, values] of Object.entries(choice.options)) {
      draft[field] = values.includes(null) ? null : values[0];
    }
  }
  return draft;
}

/** The draft of a decision `submitted` (an action, or null: the first draft). */
function submittedDraft(view, choice, submitted) {
  const draft = initialDraft(view, choice);
  if (submitted && submitted.action === choice.action) {
    for (const field of Object.keys(choice.options)) draft[field] = submitted[field] ?? null;
    if (choice.action === 'corrupt') {
      draft.plan = CORRUPT_PLANS.findIndex((p) => p.nakaw === Boolean(submitted.nakaw) && p.suhol === Boolean(submitted.suhol));
    }
  }
  return draft;
}

/** What R-72 gives a day decision not confirmed, as a draft: nobody or abstain, no,
 * Oppose; null when it is drawn at random (the President's card and committee), which no
 * pick can be said to equal. */
function dayDefault(choice) {
  if (choice.pick) return null;
  const draft = {};
  for (const [field, values] of Object.entries(choice.options)) {
    if (values.includes(null)) draft[field] = null;
    else if (values.includes(false)) draft[field] = false;
    else return null;
  }
  return draft;
}

/** Whether two drafts choose the same (fields left out are nothing chosen). */
function same(a, b) {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
}

/** An action without the fields that do not say what was chosen. */
function strip(action) {
  const { auto, player, ...rest } = action;
  return Object.fromEntries(Object.entries(rest).sort());
}

/**
 * An option button. One the rules refuse (`barred`) keeps the look, the words and the
 * structure of the others (R-70: the night grids of all roles look alike) but is
 * `aria-disabled`; a tap on it shows the neutral `barred-note` (which describes it), and
 * the held role card says why. `mark`: a ✔ before the label when chosen (the plans put
 * theirs by the letter); `you`: one's own name, marked "(you)" in the button's corner by
 * the stylesheet (from `data-you`: no element, no text in the way, so every phone's grid
 * has the same boxes and wraps alike whoever's it is, R-70).
 */
function optionButton(label, value, pressed, onclick, { barred = false, mark = true, you = false, counted = false } = {}) {
  return h(
    'button',
    {
      type: 'button',
      testid: 'option',
      class: pressed ? 'option chosen' : 'option',
      data: { value: JSON.stringify(value) },
      'aria-pressed': String(pressed),
      'aria-disabled': barred ? 'true' : null,
      'aria-describedby': barred ? 'barred-note' : null,
      'data-you': you ? `(${t('night.you')})` : null,
      'data-counted': counted ? t('ballot.counted') : null,
      onclick,
    },
    h('span', { class: 'option-label' }, pressed && mark ? '✔ ' : null, label),
  );
}



/** The card the President chose this Year, from the offered pair. */
function chosenCard(view) {
  const project = view.project;
  return project?.card ? (project.offered || []).find((c) => c.id === project.card) ?? null : null;
}

/** The Years a President elected now would serve, as "1–2" kept on one line. */
function term(view) {
  const years = view.ruleset?.president_term ?? 2;
  const until = view.year + years - 1;
  return { term: until > view.year ? `${view.year}\u2060–\u2060${until}` : String(view.year) };
}

function promptText(view, choice) {
  const card = chosenCard(view);
  const params = {
    n: choice.pick,
    name: view.witness ?? view.forced_vote ?? '',
    target: view.you.investigation?.target ?? '',
    president: view.president?.name ?? '',
    card: card ? cardName(card.id) : '',
    ...term(view),
  };
  if (choice.action === 'pick_committee') return tn('prompt.pick_committee', choice.pick, params);
  const runoff = view.step === 'elect_runoff' || view.step === 'jail_runoff';
  return t(`prompt.${runoff ? view.step : choice.action}`, params);
}

/**
 * What a day decision is about, below its question (`ballot-subject`): the office and its
 * term, the project's card, its cost and what passing or failing does, the
 * player on trial and how a jailing is decided.
 */
function subject(view, choice) {
  const card = chosenCard(view);
  const lines = [];
  let face = null;
  const spending = { cost: card?.cost ?? 0, spending: view.public_spending, target: view.targets.public_spending };
  switch (choice.action) {
    case 'stand':
    case 'elect':
      lines.push(t('about.president'));
      break;
    case 'pick_project':
      lines.push(t('about.pick_project'));
      break;
    case 'pick_committee':
      face = card && cardFace(card, view.project.committee_size);
      lines.push(t('about.pick_committee'));
      break;
    case 'committee_vote':
      face = card && cardFace(card, view.project.committee_size);
      lines.push(`✔ ${t('about.passes', spending)}`, `✖ ${t('about.fails')}`);
      if (card) lines.push(t('about.kickback', { kickback: card.kickback }));
      break;
    case 'witness_vote':
      lines.push(t('about.witness_vote', { name: view.witness ?? '' }), t('about.jailing', { years: view.ruleset?.suspension_years ?? 3 }));
      break;
    case 'forced_jail_vote':
      lines.push(t('about.forced_jail_vote', { name: view.forced_vote ?? '' }), t('about.jailing', { years: view.ruleset?.suspension_years ?? 3 }));
      break;
    case 'jail_vote':
      lines.push(t('about.jailing', { years: view.ruleset?.suspension_years ?? 3 }));
      if (view.president && view.players.find((p) => p.name === view.president.name)?.status === 'active') {
        lines.push(t('about.president_immune', { president: view.president.name }));
      }
      break;
    default:
      return null;
  }
  return h(
    'div',
    { testid: 'ballot-subject', class: 'ballot-subject', data: { card: card && ['pick_committee', 'committee_vote'].includes(choice.action) ? card.id : null } },
    face,
    lines.map((line) => h('p', { text: line })),
  );
}

/** A project card: its name (never its code), cost, kickback and committee size (R-34:
 * `size`, when fewer players are active than the card asks for). */
function cardFace(card, size = null) {
  return h(
    'span',
    { class: 'card-face', data: { card: card.id } },
    h('strong', { class: 'card-name', text: `${card.id.startsWith('L') ? '🏛' : '🏠'} ${cardName(card.id)}` }),
    h('span', { text: t('card.cost', { cost: card.cost }) }),
    h('span', { text: t('card.kickback', { kickback: card.kickback }) }),
    h('span', { text: t('card.committee', { size: size ?? card.committee }) }),
  );
}

/** How an option reads: a name, a card, yes/no, nobody or abstain. */
function optionLabel(view, choice, field, value) {
  // the server says what null means: abstaining (a vote) or nobody (a target)
  if (value === null) return `∅ ${t(choice.null === 'abstain' ? 'option.abstain' : 'option.nobody')}`;
  if (typeof value === 'boolean') return t(`option.${field}.${value}`);
  if (field === 'card') {
    const card = (view.project?.offered || []).find((c) => c.id === value);
    return card ? cardFace(card) : cardName(value);
  }
  return h('bdi', { text: String(value) }); // a name
}
