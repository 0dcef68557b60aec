/** The "me" person in two shapes: UserOutline's long traced path weighed on the first screen (ADR 0055). Sized as the library's icons. */
export function MeIcon() {
  return (
    <svg className="antd-mobile-icon" width="1em" height="1em" viewBox="0 0 48 48" style={{ verticalAlign: '-0.125em' }} aria-hidden>
      <g fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinejoin="round">
        <circle cx="24" cy="15" r="8.5" />
        <path d="M8.5 41c0-6.6 6.9-11.5 15.5-11.5S39.5 34.4 39.5 41v1.5h-31z" />
      </g>
    </svg>
  );
}
