import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { gzipAsync as zopfliGzip } from '@gfx/zopfli';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';
import { MESSAGE_AREAS } from './i18n/areas';
import { LOCALES, type Locale } from './i18n/locales';
import { isMessagePack, MESSAGE_PACKS } from './i18n/packs';

/**
 * Writes a .br (quality 11) and a .gz (zopfli: valid gzip, about 4% smaller than zlib's
 * level 9) next to every browser asset worth it, once at build time; the server sends those
 * (@fastify/static preCompressed) instead of compressing scripts on every request.
 */
function precompressAssets(): Plugin {
  return {
    name: 'shop:precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir || path.basename(dir) !== 'client') return;
      const files = Object.keys(bundle).filter(
        (fileName) => /\.(js|css|svg|json)$/.test(fileName) && !fileName.startsWith('.vite/'),
      );
      await Promise.all(
        files.map(async (fileName) => {
          const file = path.join(dir, fileName);
          const content = fs.readFileSync(file);
          if (content.length < 1024) return;
          fs.writeFileSync(
            `${file}.br`,
            brotliCompressSync(content, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
            }),
          );
          fs.writeFileSync(`${file}.gz`, await zopfliGzip(content, { numiterations: 15 }));
        }),
      );
    },
  };
}

/** The file name (before its hash) of one locale's chunk of one message pack. */
const packChunkName = (locale: string, pack: string) => `messages-${locale}-${pack}`;

/**
 * Where the browser build (already written: React Router builds it before the server, into
 * react-router.config.ts's build directory) put each message pack, by `locale/pack`.
 */
function builtPackUrls(): Record<string, string> {
  const assets = path.resolve('build/client/assets');
  const files = fs.existsSync(assets) ? fs.readdirSync(assets) : [];
  const urls: Record<string, string> = {};
  for (const locale of LOCALES) {
    for (const pack of Object.keys(MESSAGE_PACKS)) {
      const file = files.find((name) => name.startsWith(`${packChunkName(locale, pack)}-`) && name.endsWith('.js'));
      if (file) urls[`${locale}/${pack}`] = `/assets/${file}`;
    }
  }
  return urls;
}

/**
 * The browser's messages come in packs (i18n/packs.ts): `virtual:message-pack/en/storefront`
 * is one locale's strings of one pack, as a JSON object, and the browser build imports
 * i18n/catalog.client.ts wherever code imports i18n/catalog.ts (the server's full catalogue).
 * `virtual:message-pack-urls` tells the server build where the browser build put each pack,
 * so pages can preload theirs; empty in development.
 */
function messagePacks(): Plugin {
  const prefix = 'virtual:message-pack/';
  const urlsId = 'virtual:message-pack-urls';
  const serverCatalog = path.resolve('i18n/catalog.ts');
  const clientCatalog = path.resolve('i18n/catalog.client.ts');
  let command: 'build' | 'serve' = 'serve';
  return {
    name: 'shop:message-packs',
    // Before Vite's own resolver, which would otherwise resolve ./catalog first.
    enforce: 'pre',
    configResolved(config) {
      command = config.command;
    },
    async resolveId(source, importer, options) {
      if (source.startsWith(prefix) || source === urlsId) return `\0${source}`;
      if (options?.ssr || !source.endsWith('/catalog')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === serverCatalog ? clientCatalog : null;
    },
    load(id, options) {
      if (id === `\0${urlsId}`)
        return `export default ${JSON.stringify(options?.ssr && command === 'build' ? builtPackUrls() : {})};`;
      if (!id.startsWith(`\0${prefix}`)) return null;
      const [locale = '', pack] = id.slice(prefix.length + 1).split('/');
      if (!(LOCALES as readonly string[]).includes(locale) || !isMessagePack(pack))
        throw new Error(`Unknown message pack ${id}`);
      const messages = Object.assign({}, ...MESSAGE_PACKS[pack].map((area) => MESSAGE_AREAS[area][locale as Locale]));
      return `export default ${JSON.stringify(messages)};`;
    },
  };
}

/** What every page's shell (root route, header, footer, messages) is made of. */
const SHELL_MODULES =
  /\/(app\/lib|app\/components\/(layout|ui)|i18n|server\/shared)\/|\/app\/components\/catalog\/(price|listing|currency-picker|header-search)\.tsx?$/;
/**
 * Not in the shell: layout parts most pages never load (the phone menu's drawer, the content
 * pages' header, the error page) or load after hydration (the loading bar, the floating widget), the messages of refused form fields and the postal-code
 * rule with its patterns (pages with forms), the order status numbers, tabs and date format
 * (order pages, account menus), and the account calls (login modal, account page).
 */
const NOT_SHELL =
  /\/app\/components\/layout\/(menu-drawer|page-header|route-error-page|floating-widget|loading-bar)\.tsx$|\/server\/shared\/(issue-messages|order-status|postal-codes)\.ts$|\/app\/lib\/(dates|order-tabs|account-api)\.ts$/;

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;

/**
 * Whether a module reaches zod through its static imports. Such modules (the shared rules and
 * schemas the forms use, and whatever imports them) stay out of the shell, or every page would
 * load zod: a manual chunk takes along the dependencies no other manual chunk claims.
 */
function reachesZod(id: string, moduleInfo: ModuleInfoOf, seen = new Set<string>()): boolean {
  if (/\/node_modules\/zod\//.test(id)) return true;
  if (seen.has(id) || id.includes('/node_modules/')) return false;
  seen.add(id);
  return (moduleInfo(id)?.importedIds ?? []).some((imported) => reachesZod(imported, moduleInfo, seen));
}

/**
 * React Router's package exports point every import at its development build, which keeps its
 * developer warnings and the default error page's "Hey developer" hints; the same package ships
 * a production build, identical but for that switch. The browser build takes it (1 KB raw,
 * 215 B gzip less on every page); the server build keeps the package as installed, and our own error
 * boundaries mean the default error page (the only markup the switch changes) never renders.
 */
const reactRouterProductionBuild = [
  { find: /^react-router$/, replacement: path.resolve('node_modules/react-router/dist/production/index.mjs') },
  {
    find: /^react-router\/dom$/,
    replacement: path.resolve('node_modules/react-router/dist/production/dom-export.mjs'),
  },
];

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [reactRouter(), messagePacks(), precompressAssets()],
  resolve: {
    alias: [
      { find: '~', replacement: new URL('./app', import.meta.url).pathname },
      ...(command === 'build' && !isSsrBuild ? reactRouterProductionBuild : []),
    ],
  },
  build: {
    target: 'es2022',
    // terser with two compress passes makes React DOM and React Router about 3% smaller than
    // esbuild's minifier does; every page loads them. React Router's production build still
    // carries its developer warnings (console.warn texts, about 1.7 KB gzip): they are dropped
    // here like React drops its own (docs/decisions/0033-javascript-budget.md). Reading a
    // property has no side effects in our code or React's (ADR 0104), so terser may drop reads
    // whose value is unused.
    minify: isSsrBuild ? false : 'terser',
    terserOptions: {
      module: true,
      ecma: 2020,
      compress: { passes: 2, pure_getters: true, pure_funcs: ['warning', 'warnOnce', 'warningOnce'] },
    },
    rollupOptions: {
      output: {
        // A phone on HTTP/1.1 fetches six files at a time: React and React Router travel as one
        // file, and the small modules every page's shell uses as another, instead of a dozen
        // chunks of a few hundred bytes each. Route modules and lazy parts keep their own files.
        manualChunks(id, { getModuleInfo }) {
          if (id.startsWith('\0virtual:message-pack/')) {
            const [locale = '', pack = ''] = id.split('/').slice(1);
            return packChunkName(locale, pack);
          }
          // React and React Router travel as two files: one file reordered its modules whenever a
          // route was added (the console's routes cost 700 B gzip that way); two stay put
          // (docs/decisions/0104-javascript-budget-after-the-console.md).
          if (/\/node_modules\/react-router\//.test(id)) return 'router';
          if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'vendor';
          if (SHELL_MODULES.test(id) && !NOT_SHELL.test(id) && !reachesZod(id, getModuleInfo)) return 'shell';
          return undefined;
        },
      },
    },
  },
  ssr: {
    // Server-only packages stay external: the page bundle never imports them at run time.
    external: ['pg', '@electric-sql/pglite', 'ioredis', 'sharp'],
  },
}));
