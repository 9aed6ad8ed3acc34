'use client';
// The host's navigation between its routes: client-side (next/link), so Next.js keeps the route
// left rendered but hidden (cacheComponents) and shows it again as it was, embed included.
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const ROUTES = [
  { href: '/', label: 'Dashboard' },
  { href: '/settings', label: 'Settings' },
];

export function Nav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Host">
      {ROUTES.map(({ href, label }) => (
        <Link key={href} href={href} aria-current={pathname === href ? 'page' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
