// "Sign in with <provider>": shown when the server has an OpenID Connect provider
// (GET /api/auth/oidc says whether there is one, and its name).  A plain link: the
// server redirects to the provider, and the provider back to the server, which sets
// the session cookie and returns to the lobby.
import { html, useState, useEffect } from "../html.js";
import { t } from "../i18n.js";
import * as api from "../api.js";

export function ProviderSignIn() {
  const [provider, setProvider] = useState(null);
  useEffect(() => {
    let live = true;
    api.getOidcProvider().then((p) => live && setProvider(p), () => live && setProvider(null));
    return () => {
      live = false;
    };
  }, []);
  if (!provider || !provider.enabled) return null;
  return html`<p class="btn-row provider-sign-in">
    <a class="btn wide" href=${provider.login} data-testid="oidc-sign-in">${t("oidc_sign_in", { name: provider.name })}</a>
  </p>`;
}
