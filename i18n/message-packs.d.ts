/** One locale's strings of one message pack, generated at build time (vite.config.ts). */
declare module 'virtual:message-pack/*' {
  const messages: Record<string, string>;
  export default messages;
}

/** Where the browser build put each pack (`en/storefront` -> `/assets/messages-en-storefront-<hash>.js`); server build only. */
declare module 'virtual:message-pack-urls' {
  const urls: Record<string, string>;
  export default urls;
}
