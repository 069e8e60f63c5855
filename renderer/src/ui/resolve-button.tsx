// "Resolve…" on anything changed here and on the server: it opens the
// three-way view of that resource, wherever the conflict is said.
import type { ConflictTarget } from '../../../ipc/outbox-schemas';
import { openConflictOf } from '../store/trust-store';

export function ResolveButton({ target, className }: { target: ConflictTarget; className: string }) {
  return (
    <button type="button" className={className} onClick={() => openConflictOf(target)}>
      Resolve…
    </button>
  );
}
