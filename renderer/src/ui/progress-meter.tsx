// A labelled progress bar ("12 of 30 done"), used by sprints and goals.
import './progress-bars.css';

export function ProgressMeter({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  return (
    <div className="progress-meter">
      <progress max={Math.max(total, 1)} value={done} aria-label={label} />
      <span className="progress-words">
        {done} of {total} done{total > 0 ? ` · ${percent}%` : ''}
      </span>
    </div>
  );
}
