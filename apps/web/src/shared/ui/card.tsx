import type { ReactNode } from 'react';
import { Link } from 'react-router';
import InformationCircleOutline from 'antd-mobile-icons/es/InformationCircleOutline';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import './card.css';

export interface CardRow {
  label: ReactNode;
  value: ReactNode;
}

export interface CardProps {
  title: ReactNode;
  titleDesc?: ReactNode;
  /** Shows the info icon; called when it is tapped. */
  onInfo?: () => void;
  infoLabel?: string;
  more?: { label: ReactNode; to: string };
  /** Something small on the right of the header (e.g. a switch), beside or instead of the more link. */
  extra?: ReactNode;
  rows?: CardRow[];
  children?: ReactNode;
  className?: string;
}

/** The card of docs/spec.md §3: title, titleDesc, optional info icon, optional more link, rows of label and value. */
export function Card({ title, titleDesc, onInfo, infoLabel, more, extra, rows, children, className }: CardProps) {
  return (
    <section className={className ? `ba-surface ba-card ${className}` : 'ba-surface ba-card'}>
      <header className="ba-card__head">
        <div className="ba-card__heading">
          <h2 className="ba-row ba-card__title">
            {title}
            {onInfo && (
              <button type="button" className="ba-bare ba-card__info" aria-label={infoLabel} onClick={onInfo}>
                <InformationCircleOutline />
              </button>
            )}
          </h2>
          {titleDesc && <p className="ba-caption ba-card__desc">{titleDesc}</p>}
        </div>
        {extra}
        {more && (
          <Link className="ba-inline-row ba-card__more ba-hit" to={more.to}>
            {more.label}
            <RightOutline />
          </Link>
        )}
      </header>
      {rows && rows.length > 0 && (
        <dl className="ba-card__rows">
          {rows.map((row, index) => (
            <div className="ba-card__row" key={index}>
              <dt className="ba-caption">{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {children}
    </section>
  );
}
