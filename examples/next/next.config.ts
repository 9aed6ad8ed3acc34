import type { NextConfig } from 'next';

const config: NextConfig = {
  // No image optimization, so the build needs no `sharp`.
  images: { unoptimized: true },
  poweredByHeader: false,
};

export default config;
