// The sync-trust dialogs, mounted once by the workspace screen.
import { ConflictDialogHost } from './conflict-view';
import { PendingChangesInspector } from './pending-changes-inspector';

export function TrustOverlays() {
  return (
    <>
      <PendingChangesInspector />
      <ConflictDialogHost />
    </>
  );
}
