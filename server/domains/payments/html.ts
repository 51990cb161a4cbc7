/** Escapes text for HTML bodies and attribute values (the hosted page, the payment mail). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
