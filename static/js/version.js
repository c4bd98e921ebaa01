// The server's version, which it writes into the page (app/web/pages.py): one source,
// the Python package, for /healthz and for the footer.
const meta = typeof document === "undefined" ? null : document.querySelector('meta[name="krypkasino-version"]');

export const VERSION = (meta && meta.content) || "";
