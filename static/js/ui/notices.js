// The settings panel's notices (issue 32): which events the server tells me of —
// my turn, 24 h / 1 h before a correspondence deadline, the daily email — kept by the
// server under my account (signed in) or this browser's player key, so that every
// device and the email honour them; and the address the digest goes to, confirmed
// by a link mailed to it.  The email part shows only when the server mails
// (SMTP_HOST set: `email.available`).
import { html, useState, useEffect } from "../html.js";
import { t, language } from "../i18n.js";
import * as api from "../api.js";

const EVENTS = ["turn", "deadline", "digest"];

function EventToggle({ name, checked, disabled, onChange }) {
  return html`<label class="toggle-line notice-event" data-notice=${name}>
    <input type="checkbox" name=${`notice-${name}`} checked=${checked} disabled=${disabled}
      onChange=${(e) => onChange(e.target.checked)} />
    <span>${t(`notice_${name}`)}</span>
  </label>`;
}

function EmailField({ email, onChanged }) {
  const [address, setAddress] = useState("");
  const [note, setNote] = useState(null);
  const [busy, setBusy] = useState(false);
  const send = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      const given = await api.giveEmail(address.trim(), language());
      setNote(t("email_sent", { address: given.address }));
      setAddress("");
      onChanged();
    } catch (err) {
      const known = { bad_address: "email_bad_address", too_soon: "email_too_soon" };
      setNote(t(known[err.code] || (err.status === 422 ? "email_bad_address" : "email_failed")));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api.forgetEmail();
      setNote(null);
      onChanged();
    } catch {
      setNote(t("email_failed"));
    } finally {
      setBusy(false);
    }
  };
  if (email.address) {
    return html`<div class="notice-email" data-testid="notice-email">
      <p class="hint" data-testid="email-state">
        ${email.confirmed ? t("email_confirmed", { address: email.address }) : note || t("email_sent", { address: email.address })}
      </p>
      <button type="button" class="btn" disabled=${busy} onClick=${remove} data-testid="email-remove">${t("email_remove")}</button>
    </div>`;
  }
  return html`<form class="notice-email" onSubmit=${send} data-testid="notice-email">
    <label for="notice-address">${t("email_label")}</label>
    <div class="email-row">
      <input id="notice-address" type="email" autocomplete="email" maxlength="254" required
        value=${address} onInput=${(e) => setAddress(e.target.value)} data-testid="email-address" />
      <button type="submit" class="btn" disabled=${busy || !address.trim()} data-testid="email-send">${t("email_send")}</button>
    </div>
    ${note ? html`<p class="hint" role="status" data-testid="email-state">${note}</p>` : null}
  </form>`;
}

export function NoticeSettings() {
  const [state, setState] = useState(null);
  const [failed, setFailed] = useState(false);
  const load = () =>
    api.noticeSettings().then(
      (got) => {
        setState(got);
        setFailed(false);
      },
      () => setFailed(true),
    );
  useEffect(() => {
    load();
  }, []);
  if (failed && !state) return html`<p class="hint" data-testid="notices">${t("notices_failed")}</p>`;
  if (!state) return null;
  const change = async (name, on) => {
    const chosen = Object.fromEntries(EVENTS.map((k) => [k, k === name ? on : state[k]]));
    setState({ ...state, ...chosen });
    try {
      setState(await api.saveNoticeSettings(chosen));
      setFailed(false);
    } catch {
      setState(state);
      setFailed(true);
    }
  };
  const mails = state.email && state.email.available;
  return html`<fieldset class="field setting notices" data-setting="notices" data-testid="notices">
    <legend>${t("notices_title")}</legend>
    ${EVENTS.filter((k) => k !== "digest" || mails).map(
      (k) => html`<${EventToggle} name=${k} checked=${state[k]} onChange=${(on) => change(k, on)} />`,
    )}
    <p class="hint">${failed ? t("notices_failed") : t("notices_help")}</p>
    ${mails ? html`<${EmailField} email=${state.email} onChanged=${load} />` : null}
  </fieldset>`;
}
