import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a .br (quality 11) and a .gz (level 9) next to every browser asset worth it, once
 * at build time; the server sends those (@fastify/static preCompressed) instead of
 * compressing scripts on every request at a low level.
 */
function precompressAssets(): Plugin {
  return {
    name: 'shop:precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      if (!options.dir || path.basename(options.dir) !== 'client') return;
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|svg|json)$/.test(fileName) || fileName.startsWith('.vite/')) continue;
        const file = path.join(options.dir, fileName);
        const content = fs.readFileSync(file);
        if (content.length < 1024) continue;
        fs.writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        fs.writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/** What every page's shell (root route, header, footer, messages) is made of. */
const SHELL_MODULES = /\/(app\/lib|app\/components\/(layout|ui)|i18n|server\/shared)\/|\/app\/components\/catalog\/(price|listing|currency-picker|header-search)\.tsx?$/;

export default defineConfig({
  plugins: [reactRouter(), precompressAssets()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  build: {
    target: 'es2022',
    rollupOptions: {
      output: {
        // A phone on HTTP/1.1 fetches six files at a time: React and React Router travel as one
        // file, and the small modules every page's shell uses as another, instead of a dozen
        // chunks of a few hundred bytes each. Route modules and lazy parts keep their own files.
        manualChunks(id) {
          if (/\/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'vendor';
          if (SHELL_MODULES.test(id)) return 'shell';
          return undefined;
        },
      },
    },
  },
  ssr: {
    // Server-only packages stay external: the page bundle never imports them at run time.
    external: ['pg', '@electric-sql/pglite', 'ioredis', 'sharp'],
  },
});
