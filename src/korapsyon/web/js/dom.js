/**
 * DOM helpers shared by every page.
 *
 * `h()` builds elements; text (names, chat, anything from the server) only ever goes in
 * through `textContent` / text nodes, never as HTML. `byTestId()` finds a test hook
 * (`data-testid`, docs/CLIENT.md). `rerender()` replaces a section's children while
 * keeping the keyboard focus on the "same" control.
 */

/**
 * Build an element. `props`: `text` (textContent), `testid`, `class`, `data` (dataset),
 * `on<event>` (listeners), booleans (present or absent attributes), other attributes.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/**
 * `el` (if any), marked as a part the board's end screen may hide when even its smallest
 * type cannot fit it (`data-fit-optional`, board.js fitToScreen).
 */
export function fitOptional(el) {
  if (el) el.dataset.fitOptional = '';
  return el;
}

/** An SVG element (the chart, the QR code). */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setProps(el, attrs);
  el.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

function setProps(el, props) {
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'text') el.textContent = String(value);
    else if (key === 'testid') el.setAttribute('data-testid', value);
    else if (key === 'class') el.setAttribute('class', value);
    else if (key === 'data') {
      for (const [name, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) el.dataset[name] = String(v);
      }
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'value') el.value = value;
    else if (key === 'checked') el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
}

/** The first element with this test hook, inside `root`. */
export function byTestId(testid, root = document) {
  return root.querySelector(`[data-testid="${testid}"]`);
}

const FOCUS_KEYS = ['testid', 'value', 'field', 'role', 'option', 'seat', 'claim'];

/**
 * Replace the children of `parent` with `children`, then give the focus back to the
 * control that matches the one focused before (same hook and data attributes), as the
 * person left it: what was typed into a field and not yet committed (no `change` since)
 * stays in it instead of the value drawn, and a text field keeps its selection (a count
 * selected to be typed over is typed over, not added to: "2" then "3" made "23").
 */
export function rerender(parent, ...children) {
  const active = document.activeElement;
  const key = active && parent.contains(active) ? focusKey(active) : null;
  const typing = key ? typedState(active) : null; // (read before the removal blurs it)
  parent.replaceChildren(...children.flat(Infinity).filter(Boolean));
  if (key) {
    const again = [...parent.querySelectorAll('[data-testid]')].find((el) => focusKey(el) === key);
    if (again) {
      again.focus();
      if (typing && again.matches(TYPED)) restoreTyped(again, typing);
    }
  }
}

function focusKey(el) {
  return FOCUS_KEYS.map((k) => el.dataset?.[k] ?? '').join('|');
}

/** The fields a person types into. */
const TYPED = 'textarea, input:not([type="checkbox"], [type="radio"], [type="range"], [type="color"], [type="file"], [type="button"], [type="submit"], [type="reset"])';

// The fields typed into since their last `change` (what is in them is the person's, not
// yet the page's): a redraw keeps their value.
const uncommitted = new WeakSet();
document.addEventListener('input', (event) => uncommitted.add(event.target), true);
document.addEventListener('change', (event) => uncommitted.delete(event.target), true);

/**
 * What a field the person types into holds: its value, whether that was typed and not yet
 * committed, and its selection where it has one (a number field has none: Chrome gives
 * no `selectionStart`). Null for any other element.
 */
function typedState(el) {
  if (!el.matches?.(TYPED)) return null;
  const selection = typeof el.selectionStart === 'number' ? [el.selectionStart, el.selectionEnd, el.selectionDirection ?? 'none'] : null;
  return { value: el.value, typed: uncommitted.has(el), selection };
}

function restoreTyped(el, state) {
  if (state.typed && el.value !== state.value) {
    el.value = state.value;
    uncommitted.add(el);
  }
  if (state.selection && el.value === state.value && typeof el.selectionStart === 'number') el.setSelectionRange(...state.selection);
}

/**
 * Render `fn()` into `parent` only when `key` (any JSON-able value) changed since the
 * last call for this parent: frequent updates leave untouched sections alone.
 */
export function renderIfChanged(parent, key, fn) {
  const json = JSON.stringify(key);
  if (rendered.get(parent) === json) return;
  rendered.set(parent, json);
  rerender(parent, fn());
}

const rendered = new WeakMap();

let namePattern = null; // the room's names, as one pattern (longest first)

/** The names of the room's seats, for `withNames` (the page's room state keeps it current). */
export function setNames(names) {
  const escaped = [...new Set(names)].filter(Boolean).sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  namePattern = escaped.length ? new RegExp(`(${escaped.join('|')})`, 'u') : null;
}

/**
 * `text` (a sentence the server wrote) as nodes, each seat name in it isolated in a
 * `<bdi>`: a right-to-left name, or one ending in digits, never reorders the words around
 * it ("אב 12, Ana 3").
 */
export function withNames(text) {
  if (!namePattern || !text) return [text];
  return text.split(namePattern).map((part, index) => (index % 2 ? h('bdi', { text: part }) : part)).filter((part) => part !== '');
}

/** The room code in the page's URL (`?room=CODE`), upper-cased, or null. */
export function roomFromUrl() {
  const code = new URLSearchParams(location.search).get('room');
  return code ? code.trim().toUpperCase() : null;
}

/**
 * A `<details>` whose body is redrawn without closing it: open or shut is the user's. Its
 * summary shows a ▸/▾ marker (the stylesheet's, for every `<details>`), and the browser
 * tells assistive technology whether it is expanded.
 */
export class Fold {
  constructor(className, open = false) {
    this.summary = h('summary');
    this.body = h('div');
    this.element = h('details', { class: `fold ${className}`, open }, this.summary, this.body);
  }

  /** Set the summary line and, when `key` changed, the body (see `renderIfChanged`). */
  draw(title, key, fn) {
    this.summary.textContent = title;
    renderIfChanged(this.body, key, fn);
  }
}

/**
 * Show `dialog` over the page, as a modal: everything else on the page is made inert (no
 * tap, no focus, out of the accessibility tree) until the returned `close()` removes it.
 */
export function modal(dialog) {
  const behind = [...document.body.children].filter((el) => !el.inert);
  for (const el of behind) el.inert = true;
  document.body.append(dialog);
  return () => {
    dialog.remove();
    for (const el of behind) el.inert = false;
  };
}

const HOLD_MS = 150;

/**
 * Press and hold `el` (pointer, or Space/Enter while focused) to reveal: `onHold(true)`
 * after a short hold, `onHold(false)` on letting go. A finger that scrolls the page
 * across `el` (which cancels the pointer) never reveals anything. A press let go before
 * the hold counts (a tap) calls `onTap()`, so that the page can say "hold longer".
 */
export function holdToReveal(el, onHold, onTap = () => {}) {
  let pending = null;
  const press = (event) => {
    if (event.type === 'keydown' && !(event.key === ' ' || event.key === 'Enter')) return;
    event.preventDefault();
    if (event.repeat) return; // a key held down repeats: the first press counts
    clearTimeout(pending);
    pending = setTimeout(() => {
      pending = null;
      onHold(true);
    }, HOLD_MS);
  };
  const release = (event) => {
    const tapped = pending !== null && (event.type === 'pointerup' || event.type === 'keyup');
    clearTimeout(pending);
    pending = null;
    onHold(false);
    if (tapped) onTap();
  };
  el.addEventListener('pointerdown', press);
  el.addEventListener('keydown', press);
  for (const type of ['pointerup', 'pointerleave', 'pointercancel', 'keyup', 'blur']) {
    el.addEventListener(type, release);
  }
  el.addEventListener('contextmenu', (event) => event.preventDefault());
  el.addEventListener('mousedown', (event) => event.preventDefault()); // no focus scroll, no selection
}

/** `el` with its CSS `property` (`top`, `left`, a custom property the stylesheet reads)
 * at `percent` %: a chart's words are HTML placed over its plot (the CSP allows the CSSOM,
 * not style attributes). */
export function placed(el, property, percent) {
  el.style.setProperty(property, `${percent}%`);
  return el;
}

/** How long a confirming button waits before it takes taps (the Witness's "Testify", the
 * host's "Play again"): the second tap of a double tap lands on it, disabled. */
const ARM_MS = 700;

/**
 * Keep `button` disabled until ARM_MS after `since` (a `performance.now()` when its
 * question first appeared), so that a redraw meanwhile does not arm it early; returns it.
 */
export function armedAfter(button, since) {
  const wait = since + ARM_MS - performance.now();
  if (wait > 0) {
    button.disabled = true;
    setTimeout(() => {
      button.disabled = false;
    }, wait);
  }
  return button;
}
