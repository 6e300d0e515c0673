// The scene's colours, read from Material's CSS variables so the graph follows the reader's light
// or dark palette. CSS resolves any colour syntax (hex, rgb, hsl, var()) for us through a probe.

export type RGB = [number, number, number]; // 0..1

export interface Palette {
  fg: RGB;
  bg: RGB;
  primary: RGB; // values, forward pulse
  accent: RGB; // gradients, backward pulse, positive contributions
  negative: RGB; // negative contributions (a hue apart from both, also for colour-blind readers)
  error: RGB;
}

const SOURCES: Record<keyof Palette, string> = {
  fg: "var(--md-default-fg-color, #222)",
  bg: "var(--md-default-bg-color, #fff)",
  primary: "var(--md-primary-fg-color, #4051b5)",
  accent: "var(--md-accent-fg-color, #ff6e42)",
  negative: "var(--tdg-negative, #0f8f86)",
  error: "var(--tdg-error-color, #d32f2f)",
};
// Used for gradients when the site's accent is too close to its primary colour (Material's default
// palette is indigo on indigo): forward and backward must never look alike.
const DISTINCT_ACCENT = "var(--tdg-grad-fallback, #e8590c)";

export function readPalette(host: HTMLElement): Palette {
  const probe = document.createElement("span");
  probe.style.display = "none";
  host.append(probe);
  const read = (css: string): RGB => {
    probe.style.color = "";
    probe.style.color = css;
    return parseColor(getComputedStyle(probe).color);
  };
  const palette: Palette = {
    fg: read(SOURCES.fg),
    bg: read(SOURCES.bg),
    primary: read(SOURCES.primary),
    accent: read(SOURCES.accent),
    negative: read(SOURCES.negative),
    error: read(SOURCES.error),
  };
  if (hueDistance(palette.primary, palette.accent) < 50) palette.accent = read(DISTINCT_ACCENT);
  probe.remove();
  // Indigo on slate is too dark to see: lift the scene colours until they stand out (3:1).
  palette.primary = withContrast(palette.primary, palette.bg, 3);
  palette.accent = withContrast(palette.accent, palette.bg, 3);
  palette.negative = withContrast(palette.negative, palette.bg, 3);
  return palette;
}

export function contrast(a: RGB, b: RGB): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour, mixed towards white (on a dark background) or black until it reaches `ratio`. */
export function withContrast(colour: RGB, background: RGB, ratio: number): RGB {
  const target: RGB = luminance(background) < 0.2 ? [1, 1, 1] : [0, 0, 0];
  let out = colour;
  for (let t = 0.1; contrast(out, background) < ratio && t <= 1; t += 0.1) out = mix(colour, target, t);
  return out;
}

/** Degrees between two colours' hues (0..180); grey counts as far from everything. */
export function hueDistance(a: RGB, b: RGB): number {
  const ha = hue(a);
  const hb = hue(b);
  if (ha === null || hb === null) return 180;
  const d = Math.abs(ha - hb) % 360;
  return d > 180 ? 360 - d : d;
}

function hue([r, g, b]: RGB): number | null {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const c = max - min;
  if (c < 0.08) return null;
  const h = max === r ? ((g - b) / c) % 6 : max === g ? (b - r) / c + 2 : (r - g) / c + 4;
  return (h * 60 + 360) % 360;
}

/** "rgb(1, 2, 3)", "rgba(1, 2, 3, 0.5)" or "color(srgb r g b / a)": alpha is blended onto white/black later. */
export function parseColor(text: string): RGB {
  const numbers = (text.match(/-?[\d.]+(e-?\d+)?/g) ?? []).map(Number);
  if (text.startsWith("color(")) return [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0];
  return [(numbers[0] ?? 0) / 255, (numbers[1] ?? 0) / 255, (numbers[2] ?? 0) / 255];
}

export function mix(a: RGB, b: RGB, t: number): RGB {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function luminance(c: RGB): number {
  const lin = (x: number): number => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
}
