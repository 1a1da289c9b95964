import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One build serves both /app (owners) and /admin (administrators); hashed files live under /app/assets.
export default defineConfig({
  base: '/app/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/api': 'http://localhost:8000', '/dev': 'http://localhost:8000' } },
});
