/** The reply box's tool icons, drawn (a font's emoji may be missing): decorative, each button has its label. */

export function SmileIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
        <circle cx="12" cy="12" r="9" />
        <path d="M8 14.5a4.5 4.5 0 0 0 8 0" />
        <path d="M9 9.5h.01M15 9.5h.01" strokeWidth="2.6" />
      </g>
    </svg>
  );
}

export function MicIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
        <rect x="9" y="3" width="6" height="11" rx="3" />
        <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" />
      </g>
    </svg>
  );
}
