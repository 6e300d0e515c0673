// Whether the page's address names an element: a plain link to it (#id) or a shared moment
// (#id?expr=…). The sandbox (main.ts) and the widgets (src/widgets/main.ts) wake when it does. And the
// request that a sandbox write its moment there at once (share.ts), which the language links make.

export function named(root: HTMLElement): boolean {
  let hash = location.hash.slice(1);
  try {
    hash = decodeURIComponent(hash);
  } catch {
    // a malformed escape: compare the raw text
  }
  return root.id !== "" && (hash === root.id || hash.startsWith(`${root.id}?`));
}

/**
 * Asked of a sandbox's root (dispatched, synchronously) when its moment is about to be carried away,
 * by a language link (translations.ts): the address then names the moment of that instant (otherwise
 * written when the reader changes something, about once a second while their pulse plays, and when
 * it ends).
 */
export const WRITE_NOW = "tinydag:write-moment";
