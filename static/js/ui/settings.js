// The settings panel: a button in the header opens a dialog whose every change
// takes effect at once and is kept in this browser (js/settings.js).
import { html, useState, useEffect, useRef } from "../html.js";
import { t, language } from "../i18n.js";
import * as settings from "../settings.js";
import { askNotificationPermission, notificationsSupported, playTone } from "../alerts.js";
import { pushSupported, enablePush, disablePush } from "../push.js";
import { CardFace, CardBack } from "./cardsvg.js";
import { NoticeSettings } from "./notices.js";

/** The settings as a hook: re-renders when they change (here or in another tab). */
export function useSettings() {
  const [value, setValue] = useState(settings.get());
  useEffect(() => settings.subscribe(setValue), []);
  return value;
}

function Choice({ name, label, values, value, onChange, hint }) {
  return html`<fieldset class="field setting" data-setting=${name}>
    <legend>${label}</legend>
    <div class="choice-row">
      ${values.map(
        (v) => html`<label class=${`choice ${value === v ? "on" : ""}`}>
          <input type="radio" name=${`set-${name}`} value=${v} checked=${value === v} onChange=${() => onChange(v)} />
          <span>${t(`set_${name}_${v}`)}</span>
        </label>`,
      )}
    </div>
    ${hint ? html`<p class="hint">${hint}</p>` : null}
  </fieldset>`;
}

function Toggle({ name, label, checked, onChange, hint, disabled }) {
  return html`<div class="field setting toggle" data-setting=${name}>
    <label class="toggle-line">
      <input type="checkbox" name=${`set-${name}`} checked=${checked} disabled=${disabled} onChange=${(e) => onChange(e.target.checked)} />
      <span>${label}</span>
    </label>
    ${hint ? html`<p class="hint">${hint}</p>` : null}
  </div>`;
}

/** The browser's answer so far about notifications: "granted", "denied", "default" or "unsupported". */
const permission = () => (notificationsSupported() ? Notification.permission : "unsupported");

export function SettingsDialog({ onClose }) {
  const s = useSettings();
  const [notifyNote, setNotifyNote] = useState(null);
  const [asking, setAsking] = useState(false);
  // Ticked only when notifications will really show: saved on AND allowed by the
  // browser.  A click ticks the box in the page at once, but while the browser's
  // question is open (or ignored) the saved value is still off, and a permission
  // taken back in the browser's settings turns them off whatever was saved.
  const notifyOn = s.notify && permission() === "granted" && !asking;
  const [pushNote, setPushNote] = useState(null);
  const [pushAsking, setPushAsking] = useState(false);
  const pushOn = s.push && permission() === "granted" && !pushAsking;
  const setPush = async (on) => {
    if (!on) {
      settings.update({ push: false });
      setPushNote(null);
      await disablePush();
      return;
    }
    setPushAsking(true);
    setPushNote(t("set_notify_asking"));
    const result = await enablePush(language());
    setPushAsking(false);
    settings.update({ push: result === "on" });
    setPushNote(result === "on" ? null : t(`set_push_${result}`));
  };
  const ref = useRef(null);
  useEffect(() => {
    const first = ref.current && ref.current.querySelector("input");
    if (first) first.focus();
  }, []);
  const setNotify = async (on) => {
    if (!on) {
      settings.update({ notify: false });
      setNotifyNote(null);
      return;
    }
    setAsking(true); // re-renders: the box shows the saved value (off) while asking
    setNotifyNote(t("set_notify_asking"));
    const answer = await askNotificationPermission();
    setAsking(false);
    if (answer === "granted") {
      settings.update({ notify: true });
      setNotifyNote(null);
    } else {
      settings.update({ notify: false });
      setNotifyNote(answer === "unsupported" ? t("set_notify_unsupported") : t("set_notify_denied"));
    }
  };
  return html`<div class="overlay" onKeyDown=${(e) => e.key === "Escape" && onClose()}
      onClick=${(e) => e.target === e.currentTarget && onClose()}>
    <div class="dialog settings-dialog" role="dialog" aria-modal="true" aria-labelledby="settings-title" ref=${ref} data-testid="settings">
      <div class="dialog-head">
        <h2 id="settings-title">${t("settings")}</h2>
        <button type="button" class="btn-x" aria-label=${t("close")} onClick=${onClose} data-testid="settings-close">×</button>
      </div>
      <p class="hint">${t("settings_hint")}</p>
      <${Toggle} name="sound" label=${t("set_sound")} hint=${t("set_sound_help")} checked=${s.sound}
        onChange=${(on) => { settings.update({ sound: on }); if (on) playTone(); }} />
      <${Toggle} name="cues" label=${t("set_cues")} hint=${t("set_cues_help")} checked=${s.cues}
        onChange=${(on) => settings.update({ cues: on })} />
      <${Toggle} name="notify" label=${t("set_notify")} hint=${notifyNote || (s.notify && !notifyOn && !asking ? t("set_notify_denied") : t("set_notify_help"))}
        checked=${notifyOn} disabled=${!notificationsSupported() || asking} onChange=${setNotify} />
      <${Toggle} name="push" label=${t("set_push")} hint=${pushNote || (pushSupported() ? t("set_push_help") : t("set_push_unsupported"))}
        checked=${pushOn} disabled=${!pushSupported() || pushAsking} onChange=${setPush} />
      <${NoticeSettings} />
      <${Choice} name="confirm" label=${t("set_confirm")} values=${settings.CHOICES.confirm} value=${s.confirm}
        onChange=${(v) => settings.update({ confirm: v })} hint=${t("set_confirm_help")} />
      <${Toggle} name="hints" label=${t("set_hints")} hint=${t("set_hints_help")} checked=${s.hints}
        onChange=${(on) => settings.update({ hints: on })} />
      <${Choice} name="anim" label=${t("set_anim")} values=${settings.CHOICES.anim} value=${s.anim}
        onChange=${(v) => settings.update({ anim: v })} hint=${t("set_anim_help")} />
      <${Choice} name="theme" label=${t("set_theme")} values=${settings.CHOICES.theme} value=${s.theme}
        onChange=${(v) => settings.update({ theme: v })} />
      <${Choice} name="suits" label=${t("set_suits")} values=${settings.CHOICES.suits} value=${s.suits}
        onChange=${(v) => settings.update({ suits: v })} hint=${t("set_suits_help")} />
      <div class="setting-sample" aria-hidden="true" data-testid="suit-sample">
        ${["AS", "KH", "10D", "7C"].map((c) => html`<span class="mini"><${CardFace} code=${c} /></span>`)}
        <span class="mini"><${CardBack} /></span>
      </div>
      <${Choice} name="contrast" label=${t("set_contrast")} values=${settings.CHOICES.contrast} value=${s.contrast}
        onChange=${(v) => settings.update({ contrast: v })} />
      <${Choice} name="print" label=${t("set_print")} values=${settings.CHOICES.print} value=${s.print}
        onChange=${(v) => settings.update({ print: v })} hint=${t("set_print_help")} />
      <${Choice} name="back" label=${t("set_back")} values=${settings.CHOICES.back} value=${s.back}
        onChange=${(v) => settings.update({ back: v })} />
      <div class="btn-row">
        <button type="button" class="btn primary" onClick=${onClose}>${t("close")}</button>
      </div>
    </div>
  </div>`;
}

/** The header's gear button. */
export function SettingsButton() {
  const [open, setOpen] = useState(false);
  const button = useRef(null);
  const close = () => {
    setOpen(false);
    if (button.current) button.current.focus();
  };
  return html`<button type="button" class="btn-icon" ref=${button} onClick=${() => setOpen(true)}
      aria-label=${t("settings")} title=${t("settings")} data-testid="open-settings" aria-haspopup="dialog">
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M19.4 13a7.6 7.6 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.5 7.5 0 0 0-1.7-1L14.9 3h-4l-.4 2.9a7.5 7.5 0 0 0-1.7 1l-2.5-1-2 3.5L6.4 11a7.6 7.6 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.5 7.5 0 0 0 1.7 1l.4 2.9h4l.4-2.9a7.5 7.5 0 0 0 1.7-1l2.5 1 2-3.5zM12 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z" fill-rule="evenodd" /></svg>
    </button>
    ${open ? html`<${SettingsDialog} onClose=${close} />` : null}`;
}
