// The view library: Preact with htm tagged templates (vendored, no build step).
import { h, render, Fragment } from "../vendor/preact.mjs";
import htm from "../vendor/htm.mjs";

export { h, render, Fragment };
export { useState, useEffect, useMemo, useRef, useCallback, useLayoutEffect } from "../vendor/preact-hooks.mjs";
export const html = htm.bind(h);
