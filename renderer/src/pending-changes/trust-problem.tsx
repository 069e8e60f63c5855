// What went wrong in a pending-changes dialog (a discard or a resolve the
// service refused), said at the top of it; nothing while all is well.

export function TrustProblem({ problem }: { problem: string | null }) {
  return problem === null ? null : (
    <p className="trust-problem" role="alert">
      {problem}
    </p>
  );
}
