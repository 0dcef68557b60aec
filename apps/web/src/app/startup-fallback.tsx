import { LoadingState } from '../shared/ui/states';

/** Shown while the first (lazy) page of the visit loads. */
export function StartupFallback() {
  return (
    <div className="ba-stack ba-shell">
      <div className="ba-topbar ba-topbar--placeholder" />
      <main className="ba-shell__main">
        <LoadingState />
      </main>
    </div>
  );
}
