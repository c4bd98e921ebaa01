// The account panel of the lobby (issue 34): sign up, sign in, sign out (here or
// everywhere), download one's data, delete the account.  Accounts are optional: the
// panel says so, and everything else works without one.  The signed-in person is
// kept in the store as `account` (undefined: not asked yet; null: signed out), so
// that "My games" lists the account's rooms as soon as it changes.
import { html, useState, useEffect } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";
import { ErrorNotice, Header } from "./common.js";

/** Ask the server who is signed in (once per page), into the store. */
export function useAccount(store) {
  const { account } = store.get();
  useEffect(() => {
    if (account !== undefined) return;
    api.me().then(
      (me) => store.set({ account: me }),
      () => store.set({ account: null }),
    );
  }, [account]);
  return account;
}

function SignInForm({ store, options }) {
  const [mode, setMode] = useState("login");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (ev) => {
    ev.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = await (mode === "register" ? api.register : api.login)(username.trim(), password);
      setPassword("");
      store.set({ account: me });
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };
  const providers = (options && options.providers) || [];
  const passwords = !options || options.password_login;
  const switchTo = (next) => {
    setMode(next);
    setError(null);
  };
  return html`<div class="account-signin">
    ${options ? html`<p class="hint" data-testid="account-hint">${t(options.access !== "open" ? `account_needed_${options.access}` : "account_optional")}</p>` : null}
    ${providers.map((p) => html`<a class="btn" href=${p.login_url} data-testid="provider-login">${t("account_with_provider", { name: p.name })}</a>`)}
    ${passwords
      ? html`<div class="account-tabs" role="tablist">
          <button type="button" role="tab" aria-selected=${mode === "login"} class=${`btn small${mode === "login" ? " primary" : ""}`}
            onClick=${() => switchTo("login")} data-testid="account-tab-login">${t("account_sign_in")}</button>
          <button type="button" role="tab" aria-selected=${mode === "register"} class=${`btn small${mode === "register" ? " primary" : ""}`}
            onClick=${() => switchTo("register")} data-testid="account-tab-register">${t("account_sign_up")}</button>
        </div>
        <form onSubmit=${submit} data-testid="account-form" data-mode=${mode}>
          <div class="field">
            <label for="account-name">${t("account_username")}</label>
            <input id="account-name" name="username" autocomplete="username" autocapitalize="none" spellcheck="false"
              minlength="3" maxlength="24" required value=${username} onInput=${(e) => setUsername(e.target.value)} data-testid="account-username" />
            ${mode === "register" ? html`<p class="hint">${t("account_username_rules")}</p>` : null}
          </div>
          <div class="field">
            <label for="account-password">${t("account_password")}</label>
            <input id="account-password" name="password" type="password" required maxlength="256"
              autocomplete=${mode === "register" ? "new-password" : "current-password"}
              value=${password} onInput=${(e) => setPassword(e.target.value)} data-testid="account-password" />
            ${mode === "register" ? html`<p class="hint">${t("account_password_rules")}</p>` : null}
          </div>
          <${ErrorNotice} error=${error} />
          <div class="btn-row">
            <button type="submit" class="btn primary" disabled=${busy} data-testid="account-submit">
              ${t(mode === "register" ? "account_sign_up" : "account_sign_in")}</button>
          </div>
        </form>`
      : null}
  </div>`;
}

function SignedIn({ store, account }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [confirming, setConfirming] = useState(false);
  const act = (fn) => async () => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      store.set({ account: null });
    } catch (err) {
      setError({ code: err.code, message: err.message });
      setBusy(false);
    }
  };
  return html`<div class="account-in">
    <p data-testid="account-name">${t("account_signed_in_as")} <strong>${account.username}</strong></p>
    <${ErrorNotice} error=${error} />
    <div class="btn-row">
      <button type="button" class="btn small" disabled=${busy} onClick=${act(api.logout)} data-testid="account-logout">${t("account_sign_out")}</button>
      <button type="button" class="btn small" disabled=${busy} onClick=${act(api.logoutAll)} data-testid="account-logout-all">${t("account_sign_out_all")}</button>
      <a class="btn small" href=${api.EXPORT_URL} download="krypkasino-account.json" data-testid="account-export">${t("account_export")}</a>
    </div>
    ${confirming
      ? html`<div class="notice" role="alertdialog" aria-labelledby="account-delete-q">
          <p id="account-delete-q">${t("account_delete_confirm")}</p>
          <div class="btn-row">
            <button type="button" class="btn small danger" disabled=${busy} onClick=${act(api.deleteAccount)} data-testid="account-delete-yes">${t("account_delete")}</button>
            <button type="button" class="btn small" onClick=${() => setConfirming(false)}>${t("cancel")}</button>
          </div>
        </div>`
      : html`<button type="button" class="btn-link" onClick=${() => setConfirming(true)} data-testid="account-delete">${t("account_delete")}</button>`}
  </div>`;
}

export function AccountPanel({ store }) {
  const account = useAccount(store);
  const [options, setOptions] = useState(null);
  useEffect(() => {
    api.authOptions().then(setOptions, () => setOptions(null));
  }, []);
  return html`<section class="panel account" aria-labelledby="account-title" data-testid="account-panel">
    <h2 id="account-title">${t("account_title")}</h2>
    ${account === undefined ? html`<p class="loading" role="status">${t("loading")}</p>` : null}
    ${account === null ? html`<${SignInForm} store=${store} options=${options} />` : null}
    ${account ? html`<${SignedIn} store=${store} account=${account} />` : null}
  </section>`;
}

/** A room of a members-only server, opened signed out: sign in here, then the room
 *  opens (the page is loaded again, with the session cookie). */
export function SignInFirst({ store }) {
  const account = useAccount(store);
  const [wasOut, setWasOut] = useState(false);
  useEffect(() => store.set({ account: undefined }), []); // ask again: a session may have ended
  useEffect(() => {
    if (account === null) setWasOut(true);
    else if (account && wasOut) location.reload();
  }, [account, wasOut]);
  return html`<div class="page"><${Header} store=${store} /><main id="main" class="narrow">
    <${ErrorNotice} error=${{ code: "sign_in_required" }} />
    <${AccountPanel} store=${store} />
  </main></div>`;
}
