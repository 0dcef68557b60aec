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

/** Links as a tinted icon tile over a label, four to a row; sized by `--ba-tile-size`, `-radius`, `-font`, `-gap` on the container. */
export function IconLinks({ links, className }: { links: readonly IconLink[]; className: string }) {
  return (
    <nav className={`ba-icon-links ${className}`}>
      {links.map((link) => (
        <Link key={link.to} to={link.to} className="ba-stack ba-icon-link" data-testid={link.testId}>
          <span className={`ba-icon-tile ba-icon-link__icon ba-tone--${link.tone}`}>{link.icon}</span>
          <span className="ba-icon-link__label">{link.label}</span>
        </Link>
      ))}
    </nav>
  );
}
