// The root component: picks the screen from the route.
import { html } from "../html.js";
import { useStore } from "../store.js";
import { t } from "../i18n.js";
import { SvgDefs } from "./cardsvg.js";
import { Lobby } from "./lobby.js";
import { Room } from "./room.js";
import { HistoryPage } from "./history.js";
import { ReplayPage } from "./replay.js";
import { LearnPage } from "./learn.js";
import { ContinuePage } from "./transfer.js";
import { VERSION } from "../version.js";
import { RulesPage } from "./rules.js";
import { TutorialPage } from "./tutorial.js";
import { NotFound } from "./gone.js";
import { LeaderboardPage, ProfilePage } from "./ratings.js";
import { DailyPage } from "./daily.js";
import { LadderPage } from "./ladder.js";
import { ClubsPage, ClubJoinPage, ClubPage } from "./club.js";
import { TournamentPage } from "./tournament.js";

/** The page's last line: the program and the server's version (for bug reports). */
function Footer() {
  if (!VERSION) return null;
  return html`<footer class="app-footer" data-testid="footer">Krypkasino Online ${VERSION}</footer>`;
}

function Screen({ store, route }) {
  if (route.name === "room") return html`<${Room} key=${`${route.roomId}|${route.watch}`} store=${store} route=${route} />`;
  if (route.name === "history") return html`<${HistoryPage} key=${route.roomId} store=${store} route=${route} />`;
  if (route.name === "replay") return html`<${ReplayPage} key=${`${route.roomId}|${route.match}|${route.deal}`} store=${store} route=${route} />`;
  if (route.name === "learn") return html`<${LearnPage} key=${`${route.roomId}|${route.match}|${route.deal}|${route.seat}`} store=${store} route=${route} />`;
  if (route.name === "daily") return html`<${DailyPage} key=${`${route.date}|${route.players}`} store=${store} route=${route} />`;
  if (route.name === "continue") return html`<${ContinuePage} store=${store} />`;
  if (route.name === "rules") return html`<${RulesPage} store=${store} />`;
  if (route.name === "tutorial") return html`<${TutorialPage} store=${store} />`;
  if (route.name === "leaderboard") return html`<${LeaderboardPage} key=${route.players} store=${store} route=${route} />`;
  if (route.name === "ladder") return html`<${LadderPage} store=${store} />`;
  if (route.name === "clubs") return html`<${ClubsPage} store=${store} />`;
  if (route.name === "club_join") return html`<${ClubJoinPage} store=${store} />`;
  if (route.name === "club") return html`<${ClubPage} key=${route.clubId} store=${store} route=${route} />`;
  if (route.name === "tournament") return html`<${TournamentPage} key=${route.eventId} store=${store} route=${route} />`;
  if (route.name === "profile") return html`<${ProfilePage} key=${route.username} store=${store} route=${route} />`;
  if (route.name === "not_found") return html`<${NotFound} store=${store} />`;
  return html`<${Lobby} store=${store} />`;
}

export function App({ store }) {
  const state = useStore(store);
  const { route } = state;
  return html`<a class="skip-link" href="#main">${t("skip_to_main")}</a>
    <${SvgDefs} />
    <${Screen} store=${store} route=${route} />
    <${Footer} />`;
}
