import { NextResponse, type NextRequest } from 'next/server';
import { resolveApiUrl } from '@/lib/api-url.util';

// One origin for the browser: /api/* is rewritten to the NestJS API, so the API's session cookie
// (kj_session, httpOnly) is first-party and no CORS is needed. This runs per request and reads
// API_URL at run time; a next.config `rewrites()` entry would freeze it into the build.
export function proxy(request: NextRequest) {
  const target = new URL(request.nextUrl.pathname + request.nextUrl.search, resolveApiUrl());
  return NextResponse.rewrite(target);
}

export const config = { matcher: '/api/:path*' };
