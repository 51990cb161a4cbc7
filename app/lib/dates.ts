/** Made once per language: building an Intl format costs more than a whole order card. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** A date and time in UTC, labelled so: the same text on the server and in every browser (no hydration mismatch). */
export function formatDate(iso: string, locale: string): string {
  let format = formats.get(locale);
  if (!format)
    formats.set(
      locale,
      (format = new Intl.DateTimeFormat(locale === 'zh-cn' ? 'zh-CN' : 'en-GB', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
        timeZoneName: 'short',
      })),
    );
  return format.format(new Date(iso));
}
