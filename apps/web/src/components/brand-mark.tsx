/** The KubeJourney mark: a metro line bending through three stops, in component colours. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="8" fill="#1c1917" />
      <path
        d="M7 22.5 L13 10.5 H25"
        stroke="#fafaf9"
        strokeWidth="2.5"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="7" cy="22.5" r="3.2" fill="#22c55e" />
      <circle cx="13" cy="10.5" r="3.2" fill="#f59e0b" />
      <circle cx="25" cy="10.5" r="3.2" fill="#f43f5e" />
    </svg>
  );
}
