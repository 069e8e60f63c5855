// The sync-trust dialogs, mounted once by the workspace screen. Their code
// (the inspector, the conflict view and the text diff) loads when one first
// opens, not with the screen the app opens on (ui/later.tsx).
import { useTrust } from '../store/trust-store';
import { later } from '../ui/later';

const PendingChangesInspector = later(
  async () => (await import('./pending-changes-inspector')).PendingChangesInspector,
);
const ConflictDialogHost = later(async () => (await import('./conflict-view')).ConflictDialogHost);

export function TrustOverlays() {
  const inspectorOpen = useTrust((state) => state.inspectorOpen);
  const conflictOpen = useTrust((state) => state.conflict !== null);
  return (
    <>
      {inspectorOpen ? <PendingChangesInspector /> : null}
      {conflictOpen ? <ConflictDialogHost /> : null}
    </>
  );
}
