import type { NextConfig } from 'next';

const config: NextConfig = {
  // What `create-next-app` 16.4 writes: data is dynamic unless cached, and whatever reads the
  // request (the page's session minting) renders inside a <Suspense> boundary.
  cacheComponents: true,
  // Also what it writes (and what docs/guide/nextjs.md runs): links prefetch the pages' static
  // shells. (Without it, every build warns that cacheComponents is on without it.)
  partialPrefetching: true,
  // No image optimization, so the build needs no `sharp`.
  images: { unoptimized: true },
  poweredByHeader: false,
};

export default config;
