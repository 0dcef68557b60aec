import { Fragment } from 'react';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every case-insensitive occurrence of `keyword` marked. */
export function Highlight({ text, keyword }: { text: string; keyword: string }) {
  const needle = keyword.trim();
  if (!needle) return <>{text}</>;
  const parts = text.split(new RegExp(`(${escape(needle)})`, 'ig'));
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <mark className="ba-mark" key={index}>
            {part}
          </mark>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
