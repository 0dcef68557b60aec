import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './icon-links.css';

export interface IconLink {
  to: string;
  icon: ReactNode;
  label: string;
  tone: 'blue' | 'violet' | 'orange' | 'green';
  testId?: string;
}

/**
 * Links drawn as a tinted icon tile over a label, four to a row. The container's class may size the tiles
 * (`--ba-tile-size`, `--ba-tile-radius`, `--ba-tile-font`, `--ba-tile-gap`).
 */
export function IconLinks({ links, className }: { links: readonly IconLink[]; className: string }) {
  return (
    <nav className={`ba-icon-links ${className}`}>
      {links.map((link) => (
        <Link key={link.to} to={link.to} className="ba-icon-link" data-testid={link.testId}>
          <span className={`ba-icon-link__icon ba-tone--${link.tone}`}>{link.icon}</span>
          <span className="ba-icon-link__label">{link.label}</span>
        </Link>
      ))}
    </nav>
  );
}
