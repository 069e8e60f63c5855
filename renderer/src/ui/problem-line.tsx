// What the app refused in a form or a dialog, said in place and read out at
// once (an alert); nothing while all is well.
export function ProblemLine({
  problem,
  className,
  id,
}: {
  problem: string | null;
  className: string;
  id?: string;
}) {
  return problem === null ? null : (
    <p className={className} id={id} role="alert">
      {problem}
    </p>
  );
}
