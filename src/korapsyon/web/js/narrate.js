/**
 * Narration for the board: the moderator's line (R-71, public facts only, worded in the
 * board's language from the view's `cue`) read aloud with the browser's speech synthesis,
 * in a voice of the board's language when the device has one (and marked as that language
 * when it has none). Off until someone presses the toggle (browsers only speak after
 * a user gesture anyway).
 */

import { h } from './dom.js';
import { language, t } from './i18n.js';

const VOICE_LANGS = { en: ['en-PH', 'en'], fil: ['fil', 'tl', 'en-PH', 'en'] };
const SPEECH_LANGS = { en: 'en-PH', fil: 'fil-PH' };

export class Narrator {
  constructor() {
    this.on = false;
    this.last = null;
    this.supported = 'speechSynthesis' in window;
    this.button = h('button', {
      type: 'button',
      testid: 'narration-toggle',
      class: 'narration-toggle',
      'aria-pressed': 'false',
      disabled: !this.supported,
      onclick: () => this.toggle(),
    });
    this.draw();
  }

  toggle() {
    this.on = !this.on;
    if (!this.on) speechSynthesis.cancel();
    else if (this.last) this.speak(this.last);
    this.draw();
  }

  draw() {
    this.button.setAttribute('aria-pressed', String(this.on));
    const word = t(this.on ? 'narration.on' : 'narration.off');
    this.button.replaceChildren(h('span', { 'aria-hidden': 'true', text: this.on ? '🔊' : '🔈' }), ' ', h('span', { class: 'narration-word', text: word }));
    this.button.title = word;
    if (!this.supported) this.button.title = t('narration.unsupported');
  }

  /** Read `line` if it is new and narration is on. */
  say(line) {
    if (!line || line === this.last) return;
    this.last = line;
    if (this.on) this.speak(line);
  }

  speak(line) {
    speechSynthesis.cancel();
    const utterance = new SpeechSynthesisUtterance(line.replace(/[\u2068\u2069]/g, ''));
    utterance.lang = SPEECH_LANGS[language()] || 'en';
    const voices = speechSynthesis.getVoices();
    for (const wanted of VOICE_LANGS[language()] || ['en']) {
      const voice = voices.find((v) => v.lang.toLowerCase().replace('_', '-').startsWith(wanted.toLowerCase()));
      if (voice) {
        utterance.voice = voice;
        utterance.lang = voice.lang;
        break;
      }
    }
    utterance.rate = 0.95;
    speechSynthesis.speak(utterance);
  }
}
