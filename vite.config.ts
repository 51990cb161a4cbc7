import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  build: { target: 'es2022' },
  ssr: {
    // Server-only packages stay external: the page bundle never imports them at run time.
    external: ['pg', '@electric-sql/pglite', 'ioredis', 'sharp'],
  },
});
