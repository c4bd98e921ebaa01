// The root component: picks the screen from the route.
import { html } from "../html.js";
import { useStore } from "../store.js";
import { t } from "../i18n.js";
import { SvgDefs } from "./cardsvg.js";
import { Lobby } from "./lobby.js";
import { Room } from "./room.js";
import { VERSION } from "../version.js";

/** The page's last line: the program and the server's version (for bug reports). */
function Footer() {
  if (!VERSION) return null;
  return html`<footer class="app-footer" data-testid="footer">Krypkasino Online ${VERSION}</footer>`;
}

export function App({ store }) {
  const state = useStore(store);
  const { route } = state;
  return html`<a class="skip-link" href="#main">${t("skip_to_main")}</a>
    <${SvgDefs} />
    ${route.name === "room"
      ? html`<${Room} key=${`${route.roomId}|${route.watch}`} store=${store} route=${route} />`
      : html`<${Lobby} store=${store} />`}
    <${Footer} />`;
}
