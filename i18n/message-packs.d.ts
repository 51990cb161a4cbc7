/** One locale's strings of one message pack, generated at build time (vite.config.ts). */
declare module 'virtual:message-pack/*' {
  const messages: Record<string, string>;
  export default messages;
}
