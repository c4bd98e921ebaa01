// A tiny observable store.  One store holds the application state; the
// connection writes the view into it and the screen re-renders from it.
import { useEffect, useState } from "./html.js";

export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    /** Merge `partial` (an object, or a function of the state returning one). */
    set(partial) {
      const next = typeof partial === "function" ? partial(state) : partial;
      if (!next) return;
      state = { ...state, ...next };
      for (const fn of [...listeners]) fn(state);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** Preact hook: the store's state, re-rendering on every change. */
export function useStore(store) {
  const [state, setState] = useState(store.get());
  useEffect(() => {
    setState(store.get());
    return store.subscribe(setState);
  }, [store]);
  return state;
}
