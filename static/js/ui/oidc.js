// Back from the host's OpenID Connect provider (issue 34).  The account panel's
// "Sign in with <provider>" is a plain link: the server redirects to the provider,
// the provider back to the server, which sets the session cookie and sends the
// browser to /?signin=provider.  A chain of redirects carries no header, so this
// browser's player keys (whose rooms become the account's) are handed over here,
// once, and the address is put back to the plain lobby.
import { useEffect } from "../html.js";
import * as api from "../api.js";

export const RETURN_PARAM = "signin";

export function useProviderReturn(store) {
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get(RETURN_PARAM) !== "provider") return;
    params.delete(RETURN_PARAM);
    const rest = params.toString();
    history.replaceState(history.state, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
    // Signed out meanwhile, or no key to give: nothing to do.  "My games" is asked again.
    api.takeOverKeys().then(
      () => store.set({ account: undefined }),
      () => {},
    );
  }, []);
}
