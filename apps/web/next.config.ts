import path from 'node:path';
import type { NextConfig } from 'next';

// /api/* is proxied to the NestJS API by src/proxy.ts, which reads API_URL when the server runs.
// (A `rewrites()` entry here would freeze API_URL into the build's routes manifest.)
const nextConfig: NextConfig = {
  // libs/* are npm workspaces outside this folder; Turbopack must see the monorepo root.
  turbopack: { root: path.join(__dirname, '..', '..') },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
