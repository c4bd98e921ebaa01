// The root component: picks the screen from the route.
import { html } from "../html.js";
import { useStore } from "../store.js";
import { t } from "../i18n.js";
import { SvgDefs } from "./cardsvg.js";
import { Lobby } from "./lobby.js";
import { Room } from "./room.js";

export function App({ store }) {
  const state = useStore(store);
  const { route } = state;
  return html`<a class="skip-link" href="#main">${t("skip_to_main")}</a>
    <${SvgDefs} />
    ${route.name === "room"
      ? html`<${Room} key=${`${route.roomId}|${route.watch}`} store=${store} route=${route} />`
      : html`<${Lobby} store=${store} />`}`;
}
