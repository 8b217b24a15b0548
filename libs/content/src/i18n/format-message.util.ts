/**
 * Fills `{name}` placeholders. A placeholder without a value is left visible rather than blanked,
 * so a missing argument shows up on screen and in tests instead of silently reading wrong.
 */
export function formatMessage(
  template: string,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );
}
