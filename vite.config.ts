import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressDir } from './server/precompress';

/** Brotli and gzip copies of the built assets, made once all the files are written. */
function precompress(): Plugin {
  let outDir = '';
  let log: (line: string) => void = () => {};
  return {
    name: 'folia-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      log = (line) => config.logger.info(line);
    },
    closeBundle: {
      // After vite-plugin-pwa's closeBundle, which writes sw.js.
      order: 'post',
      sequential: true,
      handler() {
        const made = precompressDir(outDir);
        const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
        log(
          `precompressed ${made.files} files: ${kib(made.rawBytes)} → br ${kib(made.brotliBytes)}, gzip ${kib(made.gzipBytes)}`,
        );
      },
    },
  };
}

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry imports statically loads before the first render anyway: one chunk
          // instead of dozens of small shared ones, each a round trip on a slow network.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    // `npm run dev` talks to the API server started with `npm start` (port 8000).
    proxy: { '/api': 'http://127.0.0.1:8000', '/iiif': 'http://127.0.0.1:8000' },
  },
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      manifest: {
        name: 'Folia',
        short_name: 'Folia',
        description: 'Annotate, transcribe and classify document images, online or offline.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1e3a5f',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-512-maskable.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      // woff2: the transcription font, so medieval characters show offline too.
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'] },
    }),
    precompress(),
  ],
});
