import { html } from "../html.js";
export function TutorialPage() { return html`<p>tutorial</p>`; }
