import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The console is served by the backend under /app/ (hashed assets, index.html for client routes).
 * `REACT_APP_BACKEND_URL` (the spec's variable) is read at build time; a `config.json` beside
 * index.html overrides it at run time; without either, the console talks to its own origin.
 */
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  envPrefix: ['VITE_', 'REACT_APP_'],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '^/(?!app/).*': { target: process.env.BACKEND_URL ?? 'http://localhost:8080', ws: true } } },
});
