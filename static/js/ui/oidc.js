// Back from the host's OpenID Connect provider (issue 34).  The account panel's
// "Sign in with <provider>" is a plain link: the server redirects to the provider,
// the provider back to the server, which then sends the browser to the lobby:
// - /?signin=provider: signed in.  A chain of redirects carries no header, so this
//   browser's player keys (whose rooms become the account's) are handed over here,
//   once;
// - /?signin_error=<code>: refused (bad_state, bad_code...), said here in the page's
//   language.
// Either way the address is put back to the plain lobby.
import { html, useState, useEffect } from "../html.js";
import * as api from "../api.js";
import { ErrorNotice } from "./common.js";

const DONE = "signin";
const REFUSED = "signin_error";

/** Take this page's query parameter ``name`` out of the address; its value, or null. */
function takeParam(name) {
  const params = new URLSearchParams(location.search);
  const value = params.get(name);
  if (value === null) return null;
  params.delete(name);
  const rest = params.toString();
  history.replaceState(history.state, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  return value;
}

export function ProviderReturn({ store }) {
  const [refused, setRefused] = useState(null);
  useEffect(() => {
    const code = takeParam(REFUSED);
    if (code) setRefused({ code: /^[a-z_]{1,40}$/.test(code) ? code : "bad_state" });
    if (takeParam(DONE) !== "provider") return;
    // Signed out meanwhile, or no key to give: nothing to do.  "My games" is asked again.
    api.takeOverKeys().then(
      () => store.set({ account: undefined }),
      () => {},
    );
  }, []);
  if (!refused) return null;
  return html`<div data-testid="signin-refused" data-code=${refused.code}>
    <${ErrorNotice} error=${refused} onClose=${() => setRefused(null)} />
  </div>`;
}
