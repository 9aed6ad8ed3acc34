import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import '@platform-embed/demo-shared/demo.css';
import { Nav } from './Nav';

export const metadata: Metadata = { title: 'platform-embed · Next.js host' };

// The header and its navigation stay; the route below it changes. With cacheComponents a route
// left is hidden, not unmounted: back on the dashboard, its embed is where the viewer left it.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header>
          <h1>Next.js host</h1>
          <span className="sub">App Router · initialSession from a server component · Server Action for later loads</span>
          <Nav />
        </header>
        {children}
      </body>
    </html>
  );
}
