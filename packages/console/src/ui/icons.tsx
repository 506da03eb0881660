/** A paperclip, drawn (a font's emoji may be missing): decorative, the file name beside it says what it is. */
export function PaperclipIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M16.5 6.5 8.6 14.4a2 2 0 1 0 2.8 2.8l7.9-7.9a4 4 0 0 0-5.7-5.7L5.7 11.5a6 6 0 0 0 8.5 8.5l6.3-6.3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
