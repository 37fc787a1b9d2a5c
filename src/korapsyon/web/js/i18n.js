/**
 * The message catalogs (i18n/en.json, i18n/fil.json) and the language picker.
 *
 * Every UI string comes from a catalog through `t(key, params)`; `{name}` placeholders
 * are filled from `params`. Game text sent by the server (timeline lines, the script,
 * role goals) is shown as sent. The language is kept per page kind under
 * `korapsyon:lang:<kind>` (docs/CLIENT.md).
 */

export const LANGUAGES = ['en', 'fil'];

let current = 'en';
let catalog = {};
let fallback = null; // English, for any key a catalog lacks

/** The language in use ('en' or 'fil'). */
export function language() {
  return current;
}

/** Load the catalog of the language saved for this page kind (or the browser's). */
export async function loadLanguage(kind) {
  const saved = localStorage.getItem(`korapsyon:lang:${kind}`);
  const browser = (navigator.language || 'en').toLowerCase();
  const guess = browser.startsWith('fil') || browser.startsWith('tl') ? 'fil' : 'en';
  await useLanguage(LANGUAGES.includes(saved) ? saved : guess);
}

async function useLanguage(lang) {
  fallback ??= await fetchCatalog('en');
  catalog = lang === 'en' ? fallback : await fetchCatalog(lang);
  current = lang;
  document.documentElement.lang = lang;
}

async function fetchCatalog(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  return response.json();
}

/** The UI string `key`, with `{placeholders}` filled from `params`. */
export function t(key, params = {}) {
  const text = catalog[key] ?? fallback?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? isolate(params[name]) : whole));
}

/**
 * A value put into a sentence: a string (a name, most often) between the Unicode isolates
 * FSI and PDI, the plain-text `<bdi>`, so that a right-to-left name or one ending in digits
 * never reorders the words around it; numbers as they are.
 */
function isolate(value) {
  return typeof value === 'string' ? `\u2068${value}\u2069` : String(value);
}

/** `key_one` or `key_many` by `n` (both get `{n}`). */
export function tn(key, n, params = {}) {
  return t(n === 1 ? `${key}_one` : `${key}_many`, { n, ...params });
}

/** A role's title as the UI names it (the catalog, not the server). */
export function roleTitle(role) {
  return t(`role.${role}`);
}

/** A step's title as the UI names it. */
export function stepTitle(step) {
  return step ? t(`step.${step}`) : '';
}

/** Fill the static text of a page: `data-i18n` (text), `data-i18n-label` (aria-label). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) {
    el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder));
  }
}

/**
 * Wire the page's `lang-select`: switching saves the choice for this page kind,
 * reloads the catalog and calls `onChange` so the page redraws.
 */
export function bindLanguageSelect(select, kind, onChange) {
  select.value = current;
  select.addEventListener('change', async () => {
    localStorage.setItem(`korapsyon:lang:${kind}`, select.value);
    await useLanguage(select.value);
    translateStatic();
    onChange();
  });
}
