import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Suspense, type ReactElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { lazyPart, WhenLoaded } from './lazy-part';

/** A part whose module arrives when the test says, or fails when it says. */
function heldPart() {
  const loads: { resolve: (component: (props: { name: string }) => ReactElement) => void; reject: (error: Error) => void }[] = [];
  const part = lazyPart(() => new Promise<(props: { name: string }) => ReactElement>((resolve, reject) => loads.push({ resolve, reject })));
  const Greeting = ({ name }: { name: string }) => <p data-testid="part">hello {name}</p>;
  return { part, loads, arrive: (index = 0) => act(async () => loads[index]!.resolve(Greeting)) };
}

function Host({ part, wanted }: { part: ReturnType<typeof heldPart>['part']; wanted: boolean }) {
  return (
    <WhenLoaded part={part} wanted={wanted} fallback={<p data-testid="stand-in">…</p>}>
      {(Part) => <Part name="Ada" />}
    </WhenLoaded>
  );
}

test('a part shows its stand-in until its module is in, and never suspends meanwhile', async () => {
  const { part, loads, arrive } = heldPart();
  render(
    <Suspense fallback={<p data-testid="suspended" />}>
      <Host part={part} wanted />
    </Suspense>,
  );
  expect(screen.getByTestId('stand-in')).toBeTruthy();
  expect(screen.queryByTestId('suspended')).toBeNull();
  expect(loads).toHaveLength(1);
  await arrive();
  expect(screen.getByTestId('part').textContent).toBe('hello Ada');
  expect(screen.queryByTestId('suspended')).toBeNull();
});

test('a part not wanted is not loaded; once loaded, a new host shows it at its first render', async () => {
  const { part, loads, arrive } = heldPart();
  const first = render(<Host part={part} wanted={false} />);
  expect(loads).toHaveLength(0);
  first.rerender(<Host part={part} wanted />);
  expect(loads).toHaveLength(1);
  await arrive();
  first.unmount();
  render(<Host part={part} wanted />);
  expect(screen.getByTestId('part')).toBeTruthy();
  expect(loads).toHaveLength(1);
});

test('a failed load keeps the stand-in, and the next host that wants the part tries again', async () => {
  const { part, loads, arrive } = heldPart();
  const first = render(<Host part={part} wanted />);
  await act(async () => loads[0]!.reject(new Error('chunk lost after a deploy')));
  expect(screen.getByTestId('stand-in')).toBeTruthy();
  first.unmount();
  render(<Host part={part} wanted />);
  expect(loads).toHaveLength(2);
  await arrive(1);
  expect(screen.getByTestId('part')).toBeTruthy();
});

/**
 * ADR 0055: pages are kept alive in React's <Activity>, and a Suspense boundary inside one that waited on a lazy
 * module across a hide and show left the page's previous DOM beside the new. Page code loads its parts through
 * lazy-part.ts; the one boundary left is the router's, above the kept-alive pages, for the pages' own chunks
 * (route-match.tsx, rendered in a transition).
 */
test('no page code suspends: React.lazy and <Suspense> appear only where ADR 0055 allows', () => {
  const root = resolve('apps/web/src');
  const allowed = new Set(['app/router.tsx']);
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return files(path);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
  const offenders = files(root)
    .map((file) => relative(root, file))
    .filter((file) => !allowed.has(file))
    .filter((file) => /\blazy\(\s*\(|<Suspense\b|\buseSuspenseQuery\b/.test(readFileSync(join(root, file), 'utf8')));
  expect(offenders).toEqual([]);
});
