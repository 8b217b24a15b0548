'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** A header link that knows when it points at the current page (aria-current). */
export function NavLinkClient({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const isCurrent = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={isCurrent ? 'page' : undefined}
      className={`rounded-full px-3 py-1.5 text-sm font-medium transition-colors ${
        isCurrent
          ? 'bg-stone-900 text-white'
          : 'text-stone-700 hover:bg-stone-100 hover:text-stone-900'
      }`}
    >
      {children}
    </Link>
  );
}
