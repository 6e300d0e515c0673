// Entry point of the sandbox player (bundled by the site plugin with esbuild).
// Being written by the player work; until then it only marks mounts as seen.
for (const root of document.querySelectorAll<HTMLElement>("[data-sandbox]")) root.dataset.player = "pending";
