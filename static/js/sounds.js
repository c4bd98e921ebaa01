// Short sound cues for a player listening to speech (issue 50): my turn, a
// capture, a sweep, the clock's last seconds.  Web Audio, no sound files; off
// unless the "cues" setting is on.  `played` counts what was started, for tests.
import * as settings from "./settings.js";

const NOTES = {
  turn: [[523, 0.1], [784, 0.14]], // a rising fifth: your move
  capture: [[440, 0.08]], // one short note: cards taken
  sweep: [[523, 0.07], [659, 0.07], [784, 0.07], [1047, 0.16]], // a run up: the table swept
  clock: [[880, 0.06], [880, 0.06]], // two quick beeps: seconds left
};

let audio = null;
export const played = [];

/** Play cue `name` if the setting is on; returns whether it was started. */
export function cue(name) {
  const notes = NOTES[name];
  if (!notes || !settings.get().cues) return false;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
    let at = audio.currentTime + 0.01;
    for (const [freq, length] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length + 0.01);
      at += length + 0.03;
    }
    played.push(name);
    document.documentElement.dataset.lastCue = name; // seen by tests, harmless otherwise
    return true;
  } catch {
    return false;
  }
}
