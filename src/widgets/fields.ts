// A widget's number field: the exact number, with the page's decimal sign, as its readouts write
// numbers (1.5 in en, 1,5 in ru and et); player/format.ts parseNumber reads either sign back.

export function fieldText(x: number, lang: string): string {
  const text = String(x).replaceAll("-", "\u2212"); // an exponent's too: "−1e−7"
  return lang.toLowerCase().startsWith("en") ? text : text.replace(".", ",");
}
