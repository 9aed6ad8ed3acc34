import type { NextConfig } from 'next';

const config: NextConfig = {
  // What `create-next-app` 16.4 writes: data is dynamic unless cached, and whatever reads the
  // request (the page's session minting) renders inside a <Suspense> boundary.
  cacheComponents: true,
  // No image optimization, so the build needs no `sharp`.
  images: { unoptimized: true },
  poweredByHeader: false,
};

export default config;
