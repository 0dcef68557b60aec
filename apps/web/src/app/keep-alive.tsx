import { Activity, useState, type ReactNode } from 'react';
import { staysAlive, type RouteName } from './route-table';

export interface AlivePage {
  name: RouteName;
  element: ReactNode;
}

export interface NavigationRecord {
  key: string;
  current: RouteName;
  previous: RouteName | null;
  pages: AlivePage[];
}

/** The pages alive after arriving at `destination`: the destination, plus each page whose keep-alive set covers it. */
export function nextAlivePages(pages: readonly AlivePage[], destination: AlivePage): AlivePage[] {
  const kept = pages.filter((page) => page.name !== destination.name && staysAlive(page.name, destination.name));
  return [...kept, destination];
}

/** Follows navigations (by location key): which route we came from and which pages are alive. */
export function useNavigationRecord(
  locationKey: string,
  current: RouteName,
  outlet: ReactNode,
  /** On its way elsewhere (a redirect): not recorded. */
  passingThrough = false,
): NavigationRecord {
  const [record, setRecord] = useState<NavigationRecord>(() => ({
    key: locationKey,
    current,
    previous: null,
    pages: passingThrough ? [] : [{ name: current, element: outlet }],
  }));
  if (record.key !== locationKey && !passingThrough) {
    const next: NavigationRecord = {
      key: locationKey,
      current,
      previous: record.current,
      pages: nextAlivePages(record.pages, { name: current, element: outlet }),
    };
    setRecord(next);
    return next;
  }
  return record;
}

/** Every alive page inside React's <Activity>: the current one visible, kept ones hidden with their state and scroll intact. */
export function KeepAlivePages({ record, outlet }: { record: NavigationRecord; outlet: ReactNode }) {
  return (
    <>
      {record.pages.map((page) => {
        const visible = page.name === record.current;
        return (
          <Activity key={page.name} mode={visible ? 'visible' : 'hidden'}>
            <div className="ba-route" data-route={page.name}>
              {visible ? outlet : page.element}
            </div>
          </Activity>
        );
      })}
    </>
  );
}
