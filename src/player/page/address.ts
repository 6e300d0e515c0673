// Whether the page's address names an element: a plain link to it (#id) or a shared moment
// (#id?expr=…). The sandbox (main.ts) and the widgets (src/widgets/main.ts) wake when it does.

export function named(root: HTMLElement): boolean {
  let hash = location.hash.slice(1);
  try {
    hash = decodeURIComponent(hash);
  } catch {
    // a malformed escape: compare the raw text
  }
  return root.id !== "" && (hash === root.id || hash.startsWith(`${root.id}?`));
}
