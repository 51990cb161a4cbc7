/** The path of a request target, without its query string (as sent: not decoded). */
export function pathWithoutQuery(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}
