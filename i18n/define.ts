/**
 * Each area keeps its strings in one file with both locales side by side, so a missing
 * translation is a type error rather than an English string on a Chinese page.
 */
export function defineMessages<const T extends Record<string, string>>(messages: {
  en: T;
  'zh-cn': { [K in keyof T]: string };
}) {
  return messages;
}
