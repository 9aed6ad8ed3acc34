import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import '@platform-embed/demo-shared/demo.css';

export const metadata: Metadata = { title: 'platform-embed · Next.js host' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
